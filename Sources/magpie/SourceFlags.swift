import ArgumentParser
import Magpie

#if canImport(Glibc)
    import Glibc
#endif

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Sources beyond http(s) and files: `local:///path` beneath a folder, and `s3://bucket/key`.
struct SourceFlags: ParsableArguments {
    @Option(name: .long, help: "Read local:///path URLs from beneath this folder (no links followed).")
    var localRoot: String?
    @Option(
        name: .long,
        help: """
            An S3-compatible endpoint for s3://bucket/key URLs, http(s)://host[:port] (MinIO, R2; \
            default: AWS's). Requests are signed with AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and \
            AWS_SESSION_TOKEN (unsigned without them).
            """)
    var s3Endpoint: String?
    @Option(
        name: .long, help: "Region S3 requests are signed for (default: AWS_REGION, AWS_DEFAULT_REGION, us-east-1).")
    var s3Region: String?
    @Flag(name: .long, help: "Name the bucket in --s3-endpoint's host (bucket.host) rather than its path.")
    var s3VirtualHosted = false

    func validate() throws {
        if let localRoot {
            var st = stat()
            guard stat(localRoot, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else {
                throw ValidationError("--local-root must be a folder")
            }
        }
        _ = try s3Configuration()
    }

    func s3Configuration() throws -> S3Configuration {
        do {
            return try S3Configuration.fromSettings(
                environment: ProcessInfo.processInfo.environment, endpoint: s3Endpoint, region: s3Region,
                virtualHosted: s3VirtualHosted)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// Sets the downloader's S3 source; the transports it needs beyond its own.
    func apply(to config: inout ImageDownloader.Config) -> [String: any DataLoading] {
        config.s3 = try? s3Configuration()  // validate() has checked it
        return localRoot.map { ["local": LocalRootLoader(root: $0)] } ?? [:]
    }
}
