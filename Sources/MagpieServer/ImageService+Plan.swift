import Magpie
import MagpieImage

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension ImageService {
    /// What a request asks for, checked: nothing is fetched for a request that fails here.
    /// Copied per request from the memo, so its bulk is one shared reference.
    struct Plan: Sendable {
        final class Parts: Sendable {
            let source: URL
            let options: ImageOptions
            let variesOnAccept: Bool
            let expires: Int?
            let key: String
            /// The `Content-Disposition` stem and kind, when `fn` or `att` asked for one.
            let disposition: (stem: String, attachment: Bool)?
            init(
                source: URL, options: ImageOptions, variesOnAccept: Bool, expires: Int?, key: String,
                disposition: (stem: String, attachment: Bool)?
            ) {
                (self.source, self.options, self.variesOnAccept) = (source, options, variesOnAccept)
                (self.expires, self.key, self.disposition) = (expires, key, disposition)
            }
        }
        let parts: Parts
        var maxAge: Int

        init(
            source: URL, options: ImageOptions, maxAge: Int, variesOnAccept: Bool, expires: Int?, key: String,
            disposition: (stem: String, attachment: Bool)? = nil
        ) {
            parts = Parts(
                source: source, options: options, variesOnAccept: variesOnAccept, expires: expires, key: key,
                disposition: disposition)
            self.maxAge = maxAge
        }

        var source: URL { parts.source }
        var options: ImageOptions { parts.options }
        var variesOnAccept: Bool { parts.variesOnAccept }
        /// The `exp` option, seconds since 1970.
        var expires: Int? { parts.expires }
        /// The variant's name in the memory tier: source and processor.
        var key: String { parts.key }
        var disposition: (stem: String, attachment: Bool)? { parts.disposition }
    }

    func plan(_ request: ServiceRequest) throws(ServiceError) -> Plan {
        let path = try ServicePath.parse(request.target)
        if configuration.keys.isEmpty {
            guard configuration.allowsUnsigned, !path.signature.contains(":") else { throw .badSignature }
        } else if !URLSignature.verify(
            path.signature, path: path.signed, keys: configuration.keys, size: configuration.signatureSize)
        {
            throw .badSignature
        }
        let options = try ProcessingOptions.parse(path.options, presets: configuration.presets)
        var maxAge = configuration.ttl
        if let expires = options.expires {
            let left = Double(expires) - now()
            guard left > 0 else { throw .expired }
            maxAge = min(maxAge, Int(left))
        }
        let limit = configuration.maxResultDimension
        guard options.width * options.dpr <= limit, options.height * options.dpr <= limit else { throw .tooLarge }
        try checkEffects(options)
        let source = try checkedSource(path.source)
        var format = options.format ?? "auto"
        if let ext = path.ext {
            guard let named = ImageFormat(fileExtension: ext), named.isEncodable else { throw .badOption }
            format = named.fileExtension
        }
        var varies = false
        if format == "auto" && configuration.autoWebP {
            varies = true
            if request.header("Accept")?.lowercased().contains("image/webp") == true { format = "webp" }
        }
        let limits = Variant.SourceLimits(
            pixels: configuration.maxSourcePixels, frames: configuration.maxFrames,
            framePixels: configuration.maxFramePixels, quality: configuration.decodeQuality)
        let variant = Variant(
            options, format: format, limits: limits, watermark: configuration.watermark,
            keepsColorProfile: !(options.stripsColorProfile ?? !configuration.keepsColorProfile))
        var o = manager.defaultOptions
        o.processor = variant.processor
        o.onlyLoadFirstFrame = true
        o.cache.serializer = variant.serializer
        o.cache.storesOriginal = true
        // Answers are bytes: a decoded image kept in memory would only cost RSS (a new size of a
        // known source starts from the source's bytes on disk, and a variant is served as stored).
        o.cache.memory.expiration = .expired
        return Plan(
            source: source, options: o, maxAge: maxAge, variesOnAccept: varies, expires: options.expires,
            key: source.absoluteString + "\u{0}" + o.processorIdentifier,
            disposition: options.filename != nil || options.attachment
                ? (options.filename ?? ContentDisposition.stem(of: source), options.attachment) : nil)
    }

    /// The source URL if it may be fetched: http(s), a host, no credentials, and a prefix of the
    /// allowed ones when any are set. The address it leads to is the downloader's policy's to judge.
    fileprivate func checkedSource(_ text: String) throws(ServiceError) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else { throw .malformedPath }
        guard url.user == nil, url.password == nil else { throw .sourceDenied }
        let allowed = configuration.allowedSources
        guard allowed.isEmpty || allowed.contains(where: { text.hasPrefix($0) }) else { throw .sourceDenied }
        return url
    }
}
