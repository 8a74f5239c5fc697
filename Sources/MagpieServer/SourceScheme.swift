import Magpie

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The kinds of source URL the service takes, one row per scheme: whether the configuration turns
/// it on, and what a URL of it must look like before the downloader is asked. Reaching the bytes is
/// the downloader's transport for the scheme; a new kind of source is a transport and a row here.
struct SourceScheme: Sendable {
    var enabled: @Sendable (ServiceConfiguration) -> Bool
    var isWellFormed: @Sendable (URL) -> Bool
    /// Whether this configuration lets this URL be fetched (403 otherwise).
    var permits: @Sendable (ServiceConfiguration, URL) -> Bool = { _, _ in true }

    static let all: [String: SourceScheme] = [
        "http": web, "https": web,
        // A file beneath --local-root (the loader refuses every way out of it with a 404).
        "local": SourceScheme(
            enabled: { $0.localRoot != nil },
            isWellFormed: { ($0.host(percentEncoded: true)?.isEmpty ?? true) && $0.path.count > 1 }),
        // An object of a bucket (the loader checks the bucket's name, the key and the version).
        "s3": SourceScheme(
            enabled: { $0.s3Sources },
            isWellFormed: { url in
                !(url.host(percentEncoded: true)?.isEmpty ?? true) && url.path.count > 1 && url.port == nil
            },
            // imgproxy's `IMGPROXY_S3_ALLOWED_BUCKETS` and `IMGPROXY_S3_DENIED_BUCKETS`.
            permits: { configuration, url in
                let bucket = url.host(percentEncoded: true) ?? ""
                return (configuration.s3AllowedBuckets.isEmpty || configuration.s3AllowedBuckets.contains(bucket))
                    && !configuration.s3DeniedBuckets.contains(bucket)
            }),
    ]

    /// http(s): a host; credentials are refused apart (403), not as malformed.
    static let web = SourceScheme(
        enabled: { _ in true }, isWellFormed: { !($0.host(percentEncoded: true)?.isEmpty ?? true) })
}

extension ImageService {
    /// The source URL if it may be fetched: a scheme this configuration serves, in the shape its
    /// row wants, no credentials, and a prefix of the allowed ones when any are set (imgproxy's
    /// `IMGPROXY_ALLOWED_SOURCES`, which applies to `s3://` and `local://` sources too). Where
    /// it leads is the downloader's address policy's to judge.
    func checkedSource(_ text: String) throws(ServiceError) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let row = SourceScheme.all[scheme]
        else { throw .malformedPath }
        guard row.enabled(configuration) else { throw .sourceDenied }
        guard row.isWellFormed(url) else { throw .malformedPath }
        guard url.user == nil, url.password == nil, row.permits(configuration, url) else { throw .sourceDenied }
        let allowed = configuration.allowedSources
        guard allowed.isEmpty || allowed.contains(where: { text.utf8.starts(with: $0.utf8) }) else {
            throw .sourceDenied
        }
        return url
    }
}
