import Magpie

extension ServiceError {
    /// The answer for a retrieval that failed: the origin's 4xx mirrored; its 5xx, a connection
    /// that failed and redirects that went wrong are 502; a timeout 504 (never a 404 a CDN would
    /// keep); an address or source the policy refuses 403; bytes that are not a usable image 422.
    init(_ error: ImageRetrieveError) {
        switch error {
        case .loadingFailed(let download): self = ServiceError(download)
        case .allSourcesFailed(let all): self = all.last.map { ServiceError($0.error) } ?? .badGateway
        // An animation stopped at the request's timeout is the timeout, for every request sharing it.
        case .processingFailed(_, let underlying) where underlying is AnimationTimeLimitExceeded:
            self = .requestTimeout
        case .decodingFailed, .processingFailed: self = .notAnImage
        case .cancelled: self = .unavailable
        case .notCached, .providerFailed: self = .internalError
        }
    }

    init(_ error: ImageDownloadError) {
        switch error {
        case .addressDenied, .unsupportedScheme: self = .sourceDenied
        case .invalidURL: self = .malformedPath
        case .badStatus(let code, _): self = (400..<500).contains(code) ? .origin(code) : .badGateway
        case .timedOut: self = .gatewayTimeout
        case .notAnImage, .undecodable, .bodyTooLarge: self = .notAnImage
        case .recentlyFailed(let reason, _): self = ServiceError(reason)
        case .shutDown: self = .unavailable
        case .connectionFailed, .connectionRefused, .truncatedBody, .tooManyRedirects, .redirectLoop,
            .redirectRefused, .redirectNotAllowed, .requestModifierFailed, .fileUnreadable:
            self = .badGateway
        }
    }

    /// The response for this error: fixed text, never cached.
    func response(requestID: String, node: String?, status: Int? = nil) -> ServiceResponse {
        var headers: [(name: String, value: String)] = [
            ("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store"),
            ("X-Content-Type-Options", "nosniff"), ("X-Request-ID", requestID),
        ]
        if let node { headers.append(("X-Magpie-Node", node)) }
        if self == .busy { headers.append(("Retry-After", "1")) }
        return ServiceResponse(status: status ?? self.status, headers: headers, body: Array((message + "\n").utf8))
    }
}

extension ImageService {
    /// Effect options past this service's limits are 400 before anything is fetched: a sigma over
    /// ``ServiceConfiguration/maxSigma`` (the work grows with it), padding past the largest result,
    /// a watermark when none is configured.
    func checkEffects(_ options: ProcessingOptions) throws(ServiceError) {
        let e = options.effects
        guard (e.blur ?? 0) <= configuration.maxSigma, (e.sharpen ?? 0) <= configuration.maxSigma else {
            throw .badOption
        }
        if let p = e.padding {
            let limit = configuration.maxResultDimension
            let most = Double(limit) / options.dpr
            guard Double(p[0] + p[2]) <= most, Double(p[1] + p[3]) <= most else { throw .tooLarge }
        }
    }
}
