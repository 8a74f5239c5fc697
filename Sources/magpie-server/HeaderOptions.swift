import ArgumentParser
import Magpie
import MagpieServer

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What answers carry and what the origin is asked with, as imgproxy's variables set them
/// (`IMGPROXY_ALLOW_ORIGIN`, `_SET_CANONICAL_HEADER`, `_ETAG_BUSTER`, `_LAST_MODIFIED_BUSTER`, `_RETURN_ATTACHMENT`,
/// `_TRUSTED_SIGNATURES`, `_USER_AGENT`, `_COOKIE_PASSTHROUGH`, `_COOKIE_BASE_URL`, `_COOKIE_PASSTHROUGH_ALL`, `_CACHE_CONTROL_PASSTHROUGH`).
struct HeaderOptions: ParsableArguments {
    @Option(name: .long, help: "Access-Control-Allow-Origin of image answers; OPTIONS is answered with it.")
    var allowOrigin: String?
    @Flag(name: .long, help: "Send Link: <source>; rel=\"canonical\" for http(s) sources.")
    var canonicalHeader = false
    @Option(name: .long, help: "Mixed into every ETag: change it to make every cached copy stale.")
    var etagBuster = ""
    @Option(
        name: .long,
        help: "An RFC 3339 time: an origin's Last-Modified before it is answered as it (so older copies are stale).")
    var lastModifiedBuster: String?
    @Flag(name: .long, help: "Content-Disposition: attachment unless a URL says att:0.")
    var returnAttachment = false
    @Option(name: .customLong("trusted-signature"), help: "A signature accepted without checking (repeatable).")
    var trustedSignatures: [String] = []
    @Option(name: .long, help: "The User-Agent sources are asked with (%current_version: this version).")
    var userAgent: String?
    @Flag(name: .long, help: "Answer with what is left of the origin's Cache-Control or Expires lifetime, not the TTL.")
    var cacheControlPassthrough = false
    @Flag(
        name: .long,
        help: "Pass a client's cookies to an http(s) source on the cookie base's host and path (answered private).")
    var cookiePassthrough = false
    @Option(name: .long, help: "Where clients' cookies are taken to come from (default: the request's own host).")
    var cookieBaseURL: String?
    @Flag(
        name: .long,
        help: "With --cookie-passthrough: every cookie to every source (needs signed URLs or --allowed-source).")
    var cookiePassthroughAll = false

    func apply(to configuration: inout ServiceConfiguration, download: inout ImageDownloader.Config) throws {
        if let allowOrigin {
            guard Self.isHeaderValue(allowOrigin) else { throw ValidationError("--allow-origin: not a header value") }
            configuration.allowOrigin = allowOrigin
        }
        configuration.setsCanonicalHeader = canonicalHeader
        configuration.etagBuster = etagBuster
        if let lastModifiedBuster {
            guard let date = try? Date(lastModifiedBuster, strategy: .iso8601) else {
                throw ValidationError("--last-modified-buster: an RFC 3339 time, 2026-11-29T08:00:00Z")
            }
            configuration.lastModifiedBuster = Int(date.timeIntervalSince1970.rounded(.down))
        }
        configuration.returnsAttachment = returnAttachment
        configuration.cacheControlPassthrough = cacheControlPassthrough
        if cookiePassthrough {
            var base: URL?
            if let cookieBaseURL {
                guard let url = URL(string: cookieBaseURL), CookiePassthrough.isBase(url) else {
                    throw ValidationError("--cookie-base-url: an absolute http(s) URL, https://example.com/")
                }
                base = url
            }
            configuration.cookiePassthrough = CookiePassthrough(baseURL: base, all: cookiePassthroughAll)
        }
        configuration.trustedSignatures = Set(trustedSignatures)
        if let userAgent {
            let value = userAgent.replacingOccurrences(of: "%current_version", with: MagpieCore.version)
            guard Self.isHeaderValue(value) else { throw ValidationError("--user-agent: not a header value") }
            download.defaultHeaders.removeAll { $0.name.lowercased() == "user-agent" }
            download.defaultHeaders.append(HTTPHeaderField("User-Agent", value))
        }
    }

    /// Printable ASCII and spaces, not empty: nothing that could end a header early.
    static func isHeaderValue(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.allSatisfy { (0x20...0x7E).contains($0) }
    }
}
