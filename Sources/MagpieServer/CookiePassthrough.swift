#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A client's cookies passed on to the source it asks for (imgproxy's `IMGPROXY_COOKIE_PASSTHROUGH`,
/// `_COOKIE_BASE_URL` and `_COOKIE_PASSTHROUGH_ALL`), as imgproxy's cookie jar passes them: the
/// request's `Cookie` fields are taken as cookies the base URL set (``baseURL``, or the request's
/// own `X-Forwarded-Proto`, `X-Forwarded-Host` or `Host`), so RFC 6265's rules for a cookie set
/// with no attributes decide which sources get them: the base's host exactly (host-only, any
/// port), http or https, and a path within the base's default path (§5.1.4). With ``all``, every
/// http(s) source gets every cookie.
///
/// A source fetched with cookies is the client's own: ``ImageService`` keys it apart (the cache
/// key's credentials part), shares it with no other client's request, and answers it `private`.
public struct CookiePassthrough: Sendable, Hashable {
    /// Where the cookies are taken to come from; nil: the request's own scheme and host.
    public var baseURL: URL?
    /// Every cookie to every http(s) source (imgproxy's `IMGPROXY_COOKIE_PASSTHROUGH_ALL`).
    public var all: Bool

    public init(baseURL: URL? = nil, all: Bool = false) {
        self.baseURL = baseURL
        self.all = all
    }

    /// Whether `url` can be a base: an absolute http(s) URL with a host.
    public static func isBase(_ url: URL) -> Bool {
        ["http", "https"].contains(url.scheme?.lowercased() ?? "") && !(url.host ?? "").isEmpty
    }

    /// The `Cookie` field to send with a request for `source` on behalf of `request`; nil when
    /// no cookie goes to it.
    public func header(for source: URL, request: ServiceRequest) -> String? {
        guard Self.isWeb(source.scheme) else { return nil }
        let cookies = Self.cookies(request)
        guard !cookies.isEmpty else { return nil }
        if all { return Self.field(cookies) }
        guard let base = baseURL ?? Self.requestBase(request), Self.isWeb(base.scheme),
            let baseHost = Self.canonicalHost(base.host(percentEncoded: false)),
            baseHost == Self.canonicalHost(source.host(percentEncoded: false)),
            Self.pathMatches(Self.defaultPath(base.path(percentEncoded: false)), source.path(percentEncoded: false))
        else { return nil }
        // One cookie per name, as a jar keeps them: the first one's place, the last one's value.
        var unique: [(name: String, value: String)] = []
        for cookie in cookies {
            if let i = unique.firstIndex(where: { $0.name == cookie.name }) {
                unique[i].value = cookie.value
            } else {
                unique.append(cookie)
            }
        }
        return Self.field(unique)
    }

    /// The request's cookies in order, from every `Cookie` field, as Go's `Request.Cookies` reads
    /// them: `name=value` pairs divided by `;`, a name a token, a value of printable ASCII without
    /// `"`, `;` or `\` (surrounding quotes removed); a pair that is not is skipped.
    static func cookies(_ request: ServiceRequest) -> [(name: String, value: String)] {
        var out: [(name: String, value: String)] = []
        for field in request.headers where ASCII.equalIgnoringCase(field.name, "Cookie") {
            for pair in field.value.utf8.split(separator: UInt8(ascii: ";")) {
                let part = Self.trimmed(pair)
                guard let eq = part.firstIndex(of: UInt8(ascii: "=")) else { continue }
                let name = part[..<eq]
                var value = part[part.index(after: eq)...]
                guard !name.isEmpty, name.allSatisfy(Self.isTokenByte) else { continue }
                if value.count >= 2, value.first == UInt8(ascii: "\""), value.last == UInt8(ascii: "\"") {
                    value = value.dropFirst().dropLast()
                }
                guard value.allSatisfy(Self.isValueByte) else { continue }
                out.append((String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
            }
        }
        return out
    }

    /// The base a request implies: `X-Forwarded-Proto` (else http) and `X-Forwarded-Host` (else
    /// `Host`); nil without a host.
    static func requestBase(_ request: ServiceRequest) -> URL? {
        let scheme = request.header("X-Forwarded-Proto").flatMap { $0.isEmpty ? nil : $0 } ?? "http"
        guard
            let host = request.header("X-Forwarded-Host").flatMap({ $0.isEmpty ? nil : $0 }) ?? request.header("Host"),
            !host.isEmpty, host.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") })
        else { return nil }
        return URL(string: scheme.lowercased() + "://" + host + "/")
    }

    /// RFC 6265 §5.1.4's default path: the base's path up to its last `/`, or `/`.
    static func defaultPath(_ path: String) -> String {
        guard path.hasPrefix("/"), let last = path.utf8.lastIndex(of: UInt8(ascii: "/")), last != path.startIndex
        else { return "/" }
        return String(path[..<last])
    }

    /// RFC 6265 §5.1.4's path-match.
    static func pathMatches(_ cookiePath: String, _ requestPath: String) -> Bool {
        let path = requestPath.isEmpty ? "/" : requestPath
        guard path.utf8.starts(with: cookiePath.utf8) else { return false }
        if path.utf8.count == cookiePath.utf8.count || cookiePath.utf8.last == UInt8(ascii: "/") { return true }
        return path.utf8.dropFirst(cookiePath.utf8.count).first == UInt8(ascii: "/")
    }

    /// A host as a jar compares it: lowercased, without a port, brackets or a final dot.
    static func canonicalHost(_ host: String?) -> String? {
        guard var h = host?.lowercased(), !h.isEmpty else { return nil }
        if h.hasPrefix("["), let close = h.firstIndex(of: "]") {
            h = String(h[h.index(after: h.startIndex)..<close])
        } else if h.utf8.filter({ $0 == UInt8(ascii: ":") }).count == 1, let colon = h.firstIndex(of: ":") {
            h = String(h[..<colon])
        }
        if h.hasSuffix(".") { h.removeLast() }
        return h.isEmpty ? nil : h
    }

    /// The `Cookie` field: `name=value` pairs divided by `; `, a value with a space or comma quoted
    /// (as Go's `Cookie.String` writes it).
    static func field(_ cookies: [(name: String, value: String)]) -> String {
        cookies.map { c in
            let quoted = c.value.utf8.contains { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: ",") }
            return c.name + "=" + (quoted ? "\"" + c.value + "\"" : c.value)
        }.joined(separator: "; ")
    }

    private static func isWeb(_ scheme: String?) -> Bool { ["http", "https"].contains(scheme?.lowercased() ?? "") }

    private static func trimmed(_ s: Substring.UTF8View.SubSequence) -> Substring.UTF8View.SubSequence {
        let blank = { (b: UInt8) in b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") }
        var t = s
        while let f = t.first, blank(f) { t = t.dropFirst() }
        while let l = t.last, blank(l) { t = t.dropLast() }
        return t
    }

    /// RFC 9110's `tchar`.
    private static func isTokenByte(_ b: UInt8) -> Bool {
        switch b {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        default: return Array("!#$%&'*+-.^_`|~".utf8).contains(b)
        }
    }

    private static func isValueByte(_ b: UInt8) -> Bool {
        (0x20..<0x7F).contains(b) && b != UInt8(ascii: "\"") && b != UInt8(ascii: ";") && b != UInt8(ascii: "\\")
    }
}
