import Magpie
import MagpieImage

extension ImageService {
    /// thumbor's health check (`handlers/healthcheck.py`): `WORKING`, `Cache-Control: no-cache`,
    /// tornado's default type;
    /// 503 once the server drains (thumbor has no drain: a fleet's balancer needs the signal).
    func thumborHealth(_ id: String) -> ServiceResponse {
        var headers = standardHeaders(id, "text/html; charset=UTF-8")
        headers.append(("Cache-Control", "no-cache"))
        guard !isDraining else { return ServiceResponse(status: 503, headers: headers, body: Array("draining\n".utf8)) }
        return ServiceResponse(status: 200, headers: headers, body: Array("WORKING".utf8))
    }

    /// An image answer's headers as thumbor's `_write_results_to_client` sets them:
    /// `Cache-Control: max-age=N,public` and `Expires` for the filter's `max_age` or `MAX_AGE`
    /// (none at 0); `ETag` only with `ENABLE_ETAGS`.
    static func thumborHeaders(
        _ headers: [(name: String, value: String)], _ plan: Plan, _ settings: ThumborSettings, now: Double
    ) -> [(name: String, value: String)] {
        var out = headers.filter { $0.name != "Cache-Control" && ($0.name != "ETag" || settings.etags) }
        if plan.maxAge > 0 {
            out.append(("Cache-Control", "max-age=\(plan.maxAge),public"))
            out.append(("Expires", HTTPDate.format(seconds: Int(now) + plan.maxAge)))
        }
        return out
    }
}

extension ServiceError {
    /// The status thumbor answers for this failure: 400 for a URL it refuses (a bad or missing
    /// signature, `unsafe` where not allowed, a source the loader does not validate, an image its
    /// engine cannot read), 404 where the route does not match and where the origin answered an
    /// error (thumbor's HTTP loader calls every one "not found"), 504 where it timed out. Where
    /// Magpie answers otherwise on purpose (docs/thumbor.md): 502 for an origin that could not be
    /// reached or broke off (thumbor's 599, turned 504), 429 when busy, 503 when draining or past
    /// the request's deadline.
    var thumborStatus: Int {
        switch self {
        case .badSignature, .badSecret, .badOption, .forbiddenOption, .tooLarge, .sourceDenied, .notAnImage, .expired:
            return 400
        case .malformedPath, .notFound, .origin: return 404
        default: return status
        }
    }
}

extension ImageService {
    /// The server's encoder settings with thumbor's own: `PROGRESSIVE_JPEG` (on by default, as
    /// thumbor writes them) and `PNG_COMPRESSION_LEVEL`.
    static func thumborEncoders(_ server: EncoderSettings, _ settings: ThumborSettings) -> EncoderSettings {
        var e = server
        e.jpegProgressive = settings.progressiveJPEG
        e.pngCompressionLevel = settings.pngCompressionLevel
        return e
    }
}
