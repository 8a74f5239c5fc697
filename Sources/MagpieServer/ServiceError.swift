/// Why a request failed, as the status it answers with and a short fixed message that never
/// echoes the request.
public enum ServiceError: Error, Sendable, Hashable {
    case malformedPath
    /// A path outside every route (``PathRules/prefix``).
    case notFound
    case badOption
    /// An option outside ``PathRules/allowedOptions``.
    case forbiddenOption
    case tooLarge
    case badSignature
    /// No `Authorization: Bearer` with the server's secret (imgproxy's `IMGPROXY_SECRET`).
    case badSecret
    case expired
    case sourceDenied
    case methodNotAllowed
    /// More requests in flight than allowed.
    case busy
    /// The origin answered this 4xx.
    case origin(Int)
    case badGateway
    case notAnImage
    case gatewayTimeout
    case unavailable
    /// The request took longer than ``ServiceConfiguration/requestTimeout``.
    case requestTimeout
    case internalError

    public var status: Int {
        switch self {
        case .malformedPath, .badOption, .tooLarge: return 400
        case .badSignature, .badSecret, .expired, .sourceDenied, .forbiddenOption: return 403
        case .notFound: return 404
        case .methodNotAllowed: return 405
        case .busy: return 429
        case .origin(let code): return code
        case .notAnImage: return 422
        case .badGateway: return 502
        case .unavailable, .requestTimeout: return 503
        case .gatewayTimeout: return 504
        case .internalError: return 500
        }
    }

    public var message: String {
        switch self {
        case .malformedPath: return "malformed path"
        case .notFound: return "not found"
        case .badOption: return "invalid processing options"
        case .forbiddenOption: return "processing option not allowed"
        case .tooLarge: return "requested size too large"
        case .badSignature: return "invalid signature"
        case .badSecret: return "invalid secret"
        case .expired: return "expired URL"
        case .sourceDenied: return "source not allowed"
        case .methodNotAllowed: return "method not allowed"
        case .busy: return "too many requests"
        case .origin(let code): return code == 404 ? "source not found" : code == 410 ? "source gone" : "source refused"
        case .badGateway: return "source unavailable"
        case .notAnImage: return "source is not a usable image"
        case .gatewayTimeout: return "source timed out"
        case .unavailable: return "service unavailable"
        case .requestTimeout: return "request timed out"
        case .internalError: return "internal error"
        }
    }
}
