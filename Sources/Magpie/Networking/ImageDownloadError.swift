/// Why a download failed.
public indirect enum ImageDownloadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The URL has no scheme Magpie can load, or no host.
    case invalidURL(String)
    /// No transport is registered for the URL's scheme.
    case unsupportedScheme(String)
    /// The connection could not be made or broke (reset, unreachable, DNS failure, TLS failure).
    case connectionFailed(String)
    /// Nothing listens at `host`:`port`: the connection was refused, at once.
    case connectionRefused(host: String, port: Int)
    /// The request took longer than its timeout.
    case timedOut(Duration)
    /// The server answered with a status outside the accepted range. `retryAfter` is the
    /// `Retry-After` delay it asked for, if any.
    case badStatus(code: Int, retryAfter: Duration?)
    /// The body is larger than allowed (`declared` when `Content-Length` said so up front).
    case bodyTooLarge(limit: Int, declared: Int?)
    /// The body ended before its declared length.
    case truncatedBody(received: Int, expected: Int)
    /// The body does not start like any image Magpie knows.
    case notAnImage(contentType: String?)
    /// The body sniffed as an image but did not decode (reported by the pipeline).
    case undecodable(String)
    /// More redirects than allowed.
    case tooManyRedirects(Int)
    /// A redirect led back to a URL already visited.
    case redirectLoop(String)
    /// The redirect handler refused to follow a redirect.
    case redirectRefused(status: Int, location: String)
    /// A redirect led out of http(s) (to `file:`, `ftp:`, `data:`…) and was not followed. The
    /// message is the same whatever the target, so an origin learns nothing about local paths.
    case redirectNotAllowed(status: Int)
    /// The request modifier threw.
    case requestModifierFailed(String)
    /// A local file could not be read (`file://` URLs).
    case fileUnreadable(path: String, errno: Int32)
    /// This URL failed recently (404, 410, not an image) and is remembered until `until`
    /// (seconds since the reference date); the remembered failure is `reason`.
    case recentlyFailed(reason: ImageDownloadError, until: Double)
    /// The downloader was shut down.
    case shutDown
    /// The ``AddressPolicy`` refused the connection: `host` is, or resolves to, an address of
    /// class `reason` (`loopback`, `link-local`, `private`…), or the URL's port is not allowed
    /// (`port 6379`). The address a name resolved to is not named, so a caller learns nothing of
    /// the server's internal DNS. Neither retried nor remembered.
    case addressDenied(host: String, reason: String)

    public var description: String {
        switch self {
        case .invalidURL(let u): return "invalid URL: \(u)"
        case .unsupportedScheme(let s): return "no transport for scheme \"\(s)\""
        case .connectionFailed(let why): return "connection failed: \(why)"
        case .connectionRefused(let host, let port): return "connection refused by \(host):\(port)"
        case .timedOut(let d): return "timed out after \(d)"
        case .badStatus(let code, let after):
            return "HTTP status \(code)" + (after.map { ", retry after \($0)" } ?? "")
        case .bodyTooLarge(let limit, let declared):
            return "body larger than \(limit) bytes" + (declared.map { " (Content-Length \($0))" } ?? "")
        case .truncatedBody(let received, let expected): return "body ended at \(received) of \(expected) bytes"
        case .notAnImage(let type): return "not an image (Content-Type: \(type ?? "none"))"
        case .undecodable(let why): return "the image does not decode: \(why)"
        case .tooManyRedirects(let n): return "more than \(n) redirects"
        case .redirectLoop(let u): return "redirect loop at \(u)"
        case .redirectRefused(let status, let location): return "redirect \(status) to \(location) refused"
        case .redirectNotAllowed(let status): return "redirect \(status) refused: it must lead to an http(s) URL"
        case .requestModifierFailed(let why): return "request modifier failed: \(why)"
        case .fileUnreadable(let path, let e): return "cannot read \(path): errno \(e)"
        case .recentlyFailed(let reason, _): return "failed recently, not retried yet: \(reason)"
        case .shutDown: return "the downloader was shut down"
        case .addressDenied(let host, let reason):
            return reason.hasPrefix("port ")
                ? "refused to connect to \(host): \(reason) is not allowed"
                : "refused to connect to \(host): a \(reason) address is not allowed"
        }
    }

    /// Whether a retry could succeed: connection failures, timeouts, 5xx and 429.
    public var isTransient: Bool {
        switch self {
        case .connectionFailed, .connectionRefused, .timedOut, .truncatedBody: return true
        case .badStatus(let code, _): return code == 429 || (500..<600).contains(code)
        default: return false
        }
    }

    /// Whether no connection could be made (so a pinned address should be given up).
    var isConnectFailure: Bool {
        switch self {
        case .connectionFailed, .connectionRefused: return true
        default: return false
        }
    }

    /// Whether the failure is remembered (404, 410, a body that is not an image).
    public var isRemembered: Bool {
        switch self {
        case .badStatus(let code, _): return code == 404 || code == 410
        case .notAnImage, .undecodable: return true
        default: return false
        }
    }
}
