#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The URL rules a hostile origin could otherwise abuse: normal form, port range, where a
/// redirect may lead and which headers may follow it. Pure Swift over Foundation's `URL`, so the
/// URL fuzzer (`scripts/fuzz.sh url`) compiles this file alone.
enum WebURL {
    /// Request headers that carry credentials: never sent to another origin after a redirect,
    /// and they key the cache (see `ImageManager.cacheKey(for:options:)`).
    static let credentialHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie"]

    static func isWebScheme(_ scheme: String?) -> Bool {
        guard let scheme else { return false }
        return scheme.utf8.count <= 5 && (scheme.lowercased() == "http" || scheme.lowercased() == "https")
    }

    /// Lower-case scheme and host, no default port, no fragment, `/` for an empty path. Ports
    /// outside 0–65535 (which Foundation keeps and swift-nio traps on or wraps) are invalid.
    static func normalized(_ url: URL) throws(ImageDownloadError) -> URL {
        let text = url.absoluteString
        if isWebScheme(url.scheme) {
            guard portIsValid(text) else { throw .invalidURL(text) }
        }
        if isNormalized(text) { return url }
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: true),
            let scheme = parts.scheme?.lowercased()
        else { throw .invalidURL(text) }
        parts.scheme = scheme
        parts.fragment = nil
        if scheme == "http" || scheme == "https" {
            guard let host = parts.host, !host.isEmpty else { throw .invalidURL(text) }
            parts.host = host.lowercased()
            if (scheme == "http" && parts.port == 80) || (scheme == "https" && parts.port == 443) { parts.port = nil }
            if parts.path.isEmpty { parts.path = "/" }
        }
        guard let result = parts.url else { throw .invalidURL(text) }
        if isWebScheme(result.scheme) {
            guard portIsValid(result.absoluteString), result.host.map({ !$0.isEmpty }) == true else {
                throw .invalidURL(text)
            }
        }
        return result
    }

    /// Whether `text` is already an http(s) URL in normal form: lower-case scheme and host, no
    /// default port, no fragment, a path. Most URLs are, and parsing them again is costly.
    static func isNormalized(_ text: String) -> Bool {
        var utf8 = text.utf8[...]
        if utf8.starts(with: "http://".utf8) {
            utf8 = utf8.dropFirst(7)
        } else if utf8.starts(with: "https://".utf8) {
            utf8 = utf8.dropFirst(8)
        } else {
            return false
        }
        guard let slash = utf8.firstIndex(of: UInt8(ascii: "/")) else { return false }
        let authority = utf8[..<slash]
        // A host name or IPv4 address starts with a letter or digit; anything else (no host, a
        // bare ":port", a percent sign) takes the slow path, which checks the host.
        guard let lead = authority.first,
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(lead)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(lead)
        else { return false }
        for byte in authority {
            // Only lower-case host names, IPv4 addresses and a port take the fast path: upper
            // case, user info, IPv6 literals, percent escapes and anything odd are parsed again.
            let plain =
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ":")
            if !plain { return false }
        }
        // A default port (which the slow path drops) ends the authority in ":80" or ":443".
        if authority.reversed().starts(with: "08:".utf8) || authority.reversed().starts(with: "344:".utf8) {
            return false
        }
        return !utf8[slash...].contains(UInt8(ascii: "#"))
    }

    /// The authority's port text, if the URL has an authority with a `:port` part.
    private static func portText(_ text: String) -> Substring.UTF8View? {
        let utf8 = text.utf8
        guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        var rest = utf8[colon...].dropFirst()
        guard rest.starts(with: "//".utf8) else { return nil }
        rest = rest.dropFirst(2)
        let end =
            rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
            ?? rest.endIndex
        var authority = rest[..<end]
        if let at = authority.lastIndex(of: UInt8(ascii: "@")) { authority = authority[authority.index(after: at)...] }
        if authority.first == UInt8(ascii: "[") {
            guard let close = authority.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            authority = authority[authority.index(after: close)...]
        }
        guard let portColon = authority.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        return Substring(authority[authority.index(after: portColon)...]).utf8
    }

    /// Whether the URL's port, if any, is a decimal number in 0–65535 (an empty port means the
    /// scheme's default, as RFC 3986 allows).
    static func portIsValid(_ text: String) -> Bool {
        guard let digits = portText(text) else { return true }
        var value = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return false }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            if value > 65535 { return false }
        }
        return true
    }

    /// The port a URL connects to: its own, else its scheme's default.
    static func effectivePort(_ url: URL) -> Int? {
        if let port = url.port { return port }
        switch url.scheme?.lowercased() {
        case "http": return 80
        case "https": return 443
        default: return nil
        }
    }

    /// Same scheme, host and port (RFC 6454), the boundary credentials never cross.
    static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased()
            && effectivePort(a) == effectivePort(b)
    }

    /// Where a redirect from `current` with `location` leads, normalised. Only http(s) may lead
    /// to http(s): anything else fails with ``ImageDownloadError/redirectNotAllowed(status:)``,
    /// whose message names nothing of the target (so an origin cannot probe local paths).
    static func redirectTarget(status: Int, location: String, from current: URL) throws(ImageDownloadError) -> URL {
        guard isWebScheme(current.scheme) else { throw .redirectNotAllowed(status: status) }
        guard let next = URL(string: location, relativeTo: current)?.absoluteURL else {
            throw .redirectNotAllowed(status: status)
        }
        guard isWebScheme(next.scheme) else { throw .redirectNotAllowed(status: status) }
        return try normalized(next)
    }

    /// `headers` without the credentials (and `sensitive` names, lower-case) when `next` is
    /// another origin than `current`.
    static func headersForRedirect(
        _ headers: [HTTPHeaderField], from current: URL, to next: URL, sensitive: Set<String> = []
    ) -> [HTTPHeaderField] {
        if sameOrigin(current, next) { return headers }
        return headers.filter {
            let name = $0.name.lowercased()
            return !credentialHeaders.contains(name) && !sensitive.contains(name)
        }
    }

    /// Whether the URL's authority holds user info (`user:password@`): a quick scan, no parse.
    static func hasUserInfo(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")) else { return false }
        let rest = utf8[colon...].dropFirst()
        guard rest.starts(with: "//".utf8) else { return false }
        for byte in rest.dropFirst(2) {
            if byte == UInt8(ascii: "@") { return true }
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { return false }
        }
        return false
    }

    /// The URL with any `user:password@` removed (for cache keys, logs and stored keys).
    static func withoutUserInfo(_ url: URL) -> URL {
        guard url.user != nil || url.password != nil,
            var parts = URLComponents(url: url, resolvingAgainstBaseURL: true)
        else { return url }
        parts.user = nil
        parts.password = nil
        return parts.url ?? url
    }
}
