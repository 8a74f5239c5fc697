import Magpie
import MagpieImage

/// The image served, processed with the request's options, when a source cannot be had
/// (imgproxy's `IMGPROXY_FALLBACK_IMAGE_*`).
public struct FallbackImage: Sendable {
    /// The encoded image (checked to be one when the server starts).
    public var bytes: [UInt8]
    /// The answer's status; 0: the failure's own (imgproxy's `IMGPROXY_FALLBACK_IMAGE_HTTP_CODE`,
    /// 200 by default).
    public var status: Int
    /// At most this `Cache-Control: max-age` for a fallback answer; 0: the usual
    /// (`IMGPROXY_FALLBACK_IMAGE_TTL`).
    public var ttl: Int

    public init(bytes: [UInt8], status: Int = 200, ttl: Int = 0) {
        self.bytes = bytes
        self.status = status
        self.ttl = ttl
    }

    /// The fallback's own cache key: its variants are stored under it, never under a source's.
    var cacheKey: String { "magpie-fallback:" + Digest.hex(Digest.md5(bytes)) }
}

extension ImageService {
    /// Failures a fallback answers: the source could not be had (refused, missing, unreachable, too
    /// slow, not an image). A request the service refuses before any fetch gets no fallback, as in
    /// imgproxy, where only the download's errors do.
    static func fallsBack(_ error: ServiceError) -> Bool {
        switch error {
        case .origin, .badGateway, .gatewayTimeout, .notAnImage, .sourceDenied: return true
        default: return false
        }
    }

    /// The fallback processed as `plan` asks, answered with the fallback's status, or `nil` when
    /// there is no fallback or `error` is not one it answers.
    func fallback(
        for plan: Plan, after error: ServiceError, request: ServiceRequest, id: String
    ) async -> ServiceResponse? {
        guard let fallback = configuration.fallback, Self.fallsBack(error) else { return nil }
        var options = plan.options
        options.cache.key = nil
        options.request.headers.removeAll { ASCII.equalIgnoringCase($0.name, "Cookie") }  // not fetched
        let source = Source.provider(RawImageDataProvider(fallback.bytes, cacheKey: fallback.cacheKey))
        let key = fallback.cacheKey + "\u{0}" + options.processorIdentifier
        let variant: VariantMemory.Variant
        if let hit = variants.variant(forKey: key) {
            variant = hit
        } else {
            let work: @Sendable () async -> RetrieveDataResult? = { [manager, options] in
                try? await manager.retrieveData(with: source, options: options)
            }
            let done: RetrieveDataResult?
            if let seconds = configuration.requestTimeout {
                done = await Deadline.run(seconds: seconds, work) ?? nil
            } else {
                done = await work()
            }
            guard let result = done else { return nil }
            variant = variants.store(result, forKey: key)
        }
        let status = fallback.status > 0 ? fallback.status : error.status
        var headers = standardHeaders(id, Self.contentType(variant.format))
        let maxAge = fallback.ttl > 0 ? min(plan.maxAge, fallback.ttl) : plan.maxAge
        headers += [("Cache-Control", "public, max-age=\(maxAge)"), ("X-Magpie-Cache", "fallback")]
        if status == 200 { headers.append(("ETag", variant.etag)) }
        if let vary = plan.vary { headers.append(("Vary", vary)) }
        headers.append(("Content-Length", String(variant.data.count)))
        return ServiceResponse(status: status, headers: headers, body: variant.data)
    }
}
