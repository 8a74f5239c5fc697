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
        if let s3Endpoint, URL(string: s3Endpoint).map(S3Configuration.isValidEndpoint) != true {
            throw ValidationError("--s3-endpoint must be http(s)://host[:port][/path]")
        }
        if let s3Region, s3Region.isEmpty || !s3Region.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != 0x2F }) {
            throw ValidationError("--s3-region must be a region name (us-east-1)")
        }
    }

    /// Sets the downloader's S3 source; the transports it needs beyond its own.
    func apply(to config: inout ImageDownloader.Config) -> [String: any DataLoading] {
        var s3 = S3Configuration.fromEnvironment(
            ProcessInfo.processInfo.environment, endpoint: s3Endpoint.flatMap { URL(string: $0) },
            addressing: s3VirtualHosted ? .virtualHosted : nil)
        if let s3Region { s3.region = s3Region }
        config.s3 = s3
        return localRoot.map { ["local": LocalRootLoader(root: $0)] } ?? [:]
    }
}
