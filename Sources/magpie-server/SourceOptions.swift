import ArgumentParser
import Magpie
import MagpieServer

#if canImport(Glibc)
    import Glibc
#endif

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where sources other than http(s) come from: a local folder and S3.
struct SourceOptions: ParsableArguments {
    @Option(
        name: .long, help: "Serve local:///path sources from beneath this folder (no links followed; off unless given)."
    )
    var localRoot: String?
    @Flag(
        name: .long,
        help: """
            Serve s3://bucket/key sources (?versionId=ID for a version), signed with AWS_ACCESS_KEY_ID, \
            AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN (unsigned without them). The endpoint is an \
            origin like any other: the address policy judges it.
            """)
    var s3 = false
    @Option(name: .long, help: "An S3-compatible endpoint, http(s)://host[:port] (MinIO, R2); default: AWS's.")
    var s3Endpoint: String?
    @Option(
        name: .long, help: "Region S3 requests are signed for (default: AWS_REGION, AWS_DEFAULT_REGION, us-east-1).")
    var s3Region: String?
    @Flag(name: .long, help: "Name the bucket in --s3-endpoint's host (bucket.host) rather than its path.")
    var s3VirtualHosted = false
    @Option(name: .customLong("s3-allowed-bucket"), help: "A bucket s3:// sources may name (repeatable; default: all).")
    var s3AllowedBuckets: [String] = []
    @Option(name: .customLong("s3-denied-bucket"), help: "A bucket s3:// sources may not name (repeatable).")
    var s3DeniedBuckets: [String] = []

    /// Turns the sources on in `configuration` and `download`; the transports the downloader needs
    /// beyond its own.
    func apply(to configuration: inout ServiceConfiguration, download: inout ImageDownloader.Config) throws
        -> [String: any DataLoading]
    {
        var transports: [String: any DataLoading] = [:]
        if let localRoot {
            var st = stat()
            guard stat(localRoot, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else {
                throw ValidationError("--local-root must be a folder")
            }
            transports["local"] = LocalRootLoader(root: localRoot)
            configuration.localRoot = localRoot
        }
        if let s3 = try s3Configuration(ProcessInfo.processInfo.environment) {
            download.s3 = s3
            configuration.s3Sources = true
            configuration.s3AllowedBuckets = Set(s3AllowedBuckets)
            configuration.s3DeniedBuckets = Set(s3DeniedBuckets)
        }
        return transports
    }

    /// The S3 settings when `--s3` is given.
    func s3Configuration(_ environment: [String: String]) throws -> S3Configuration? {
        guard s3 else {
            if s3Endpoint != nil || s3Region != nil || s3VirtualHosted {
                throw ValidationError("--s3-endpoint, --s3-region and --s3-virtual-hosted need --s3")
            }
            return nil
        }
        do {
            return try S3Configuration.fromSettings(
                environment: environment, endpoint: s3Endpoint, region: s3Region, virtualHosted: s3VirtualHosted)
        } catch {
            throw ValidationError(error.description)
        }
    }
}
