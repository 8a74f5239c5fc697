#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Building the request: headers (defaults, the caller's, conditional ones), the URL in normal
/// form with its credentials moved into a header, and the coalescing key.
extension ImageDownloader {
    /// The request for `url` with the configured and given headers; with `checkingURL`, the URL
    /// in normal form (see ``prepareURL(_:)``).
    func baseRequest(_ url: URL, _ options: DownloadOptions, checkingURL: Bool = true) throws -> DataRequest {
        var headers = config.defaultHeaders
        for field in options.headers { headers.set(field.name, field.value) }
        if let v = options.revalidating {
            // Validators come back from a cache folder another user may have written into: one
            // that is not a plain header value (CR, LF, other controls) is not sent at all.
            if let etag = v.etag, ResponseValidators.isSendable(etag) { headers.set("If-None-Match", etag) }
            if let date = v.lastModified, ResponseValidators.isSendable(date) {
                headers.set("If-Modified-Since", date)
            }
        }
        var request = DataRequest(
            url: url, headers: headers, timeout: options.timeout ?? config.timeout,
            maxBodySize: config.maxBodySize, acceptableStatusCodes: config.acceptableStatusCodes)
        if checkingURL { try prepareURL(&request) }
        return request
    }

    /// Puts the request's URL in normal form (``ImageDownloadError/invalidURL(_:)`` when it has
    /// none). `user:password@` becomes Basic authorisation (as curl does) and leaves the URL, so
    /// it reaches no log, key or redirect; an explicit Authorization header wins.
    func prepareURL(_ request: inout DataRequest) throws(ImageDownloadError) {
        var target = try Self.normalized(request.url)
        if WebURL.isWebScheme(target.scheme) && WebURL.hasUserInfo(target.absoluteString) {
            if request.headers.value(for: "Authorization") == nil {
                let user = target.user(percentEncoded: false) ?? ""
                let password = target.password(percentEncoded: false) ?? ""
                request.headers.set(
                    "Authorization", "Basic " + Data((user + ":" + password).utf8).base64EncodedString())
            }
            target = WebURL.withoutUserInfo(target)
        }
        request.url = target
    }

    /// The coalescing key: normalised URL plus the header fields that can change the response.
    func coalescingKey(_ request: DataRequest) -> String {
        var key = request.url.absoluteString
        let fields = request.headers
            .filter { !config.headersIgnoredForCoalescing.contains($0.name.lowercased()) }
            .map { $0.name.lowercased() + ":" + $0.value }
            .sorted()
        for field in fields {
            key += "\n"
            key += field
        }
        return key
    }

    /// Lower-case scheme and host, no default port, no fragment, `/` for an empty path; ports
    /// outside 0–65535 are ``ImageDownloadError/invalidURL(_:)``.
    static func normalized(_ url: URL) throws(ImageDownloadError) -> URL { try WebURL.normalized(url) }
}
