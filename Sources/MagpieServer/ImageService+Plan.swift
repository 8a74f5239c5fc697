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
            let passThrough: PassThrough?
            init(
                source: URL, options: ImageOptions, variesOnAccept: Bool, expires: Int?, key: String,
                disposition: (stem: String, attachment: Bool)?, passThrough: PassThrough?
            ) {
                (self.source, self.options, self.variesOnAccept) = (source, options, variesOnAccept)
                (self.expires, self.key, self.disposition, self.passThrough) = (expires, key, disposition, passThrough)
            }
        }
        let parts: Parts
        var maxAge: Int

        /// Source bytes answered as they are: `raw`, or `skp` for the listed source formats when
        /// the output asked for (`auto` or a format) is the source's own.
        enum PassThrough: Sendable {
            case raw
            case skip(Set<String>, format: String)
        }
        /// The limits a source is held to (kept for `skp`, which checks them without a decode).
        var sourceLimits: Variant.SourceLimits?

        init(
            source: URL, options: ImageOptions, maxAge: Int, variesOnAccept: Bool, expires: Int?, key: String,
            disposition: (stem: String, attachment: Bool)? = nil, passThrough: PassThrough? = nil
        ) {
            parts = Parts(
                source: source, options: options, variesOnAccept: variesOnAccept, expires: expires, key: key,
                disposition: disposition, passThrough: passThrough)
            self.maxAge = maxAge
        }

        /// This plan for the file a `local://` source names as it is now (``LocalRootLoader/stamp(_:beneath:)``):
        /// its source and variants under keys of their own, so a replaced file is a new source at
        /// once (imgproxy reads local files afresh on every request it does not serve from a CDN).
        func stamped(_ stamp: String) -> Plan {
            var options = parts.options
            options.cache.key = parts.source.absoluteString + "#file=" + stamp
            var copy = Plan(
                source: source, options: options, maxAge: maxAge, variesOnAccept: variesOnAccept, expires: expires,
                key: key + "\u{0}" + stamp, disposition: disposition, passThrough: passThrough)
            copy.sourceLimits = sourceLimits
            return copy
        }

        var source: URL { parts.source }
        var options: ImageOptions { parts.options }
        var variesOnAccept: Bool { parts.variesOnAccept }
        /// The `exp` option, seconds since 1970.
        var expires: Int? { parts.expires }
        /// The variant's name in the memory tier: source and processor.
        var key: String { parts.key }
        var disposition: (stem: String, attachment: Bool)? { parts.disposition }
        var passThrough: PassThrough? { parts.passThrough }
    }

    func plan(_ request: ServiceRequest) throws(ServiceError) -> Plan {
        let rules = configuration.paths
        let path = try ServicePath.parse(request.target, rules: rules)
        if configuration.keys.isEmpty {
            guard configuration.allowsUnsigned, !path.signature.contains(":") else { throw .badSignature }
        } else if !configuration.trustedSignatures.contains(path.signature),
            !URLSignature.verify(
                path.signature, path: path.signed, keys: configuration.keys, size: configuration.signatureSize)
        {
            throw .badSignature
        }
        var options = try ProcessingOptions.parse(
            path.options, presets: configuration.presets, rules: rules, named: path.presets)
        // `wm` on a server without a watermark is parsed and draws nothing (as imgproxy).
        if configuration.watermark == nil { options.effects.watermark = nil }
        var maxAge = configuration.ttl
        if let expires = options.expires {
            let left = Double(expires) - now()
            guard left > 0 else { throw .expired }
            maxAge = min(maxAge, Int(left))
        }
        // The server's largest result bounds the box a request asks for (at its DPR); `mrd` (at
        // most the server's) scales a larger result down to it, as imgproxy's limit does.
        let limit = configuration.maxResultDimension
        guard Double(options.width) * options.dpr <= Double(limit),
            Double(options.height) * options.dpr <= Double(limit)
        else { throw .tooLarge }
        try checkEffects(options)
        let source = try checkedSource(path.source)
        var format = options.format ?? "auto"
        if let ext = path.ext {
            guard let named = ImageFormat(fileExtension: ext), named.isEncodable else { throw .badOption }
            format = named.fileExtension
        }
        var varies = false
        // An animation's format: the one named, else what Accept takes for animations, else
        // (nil) the source's own rule.
        var animatedFormat: String? = format == "auto" ? nil : format
        if format == "auto" && (configuration.autoWebP || configuration.autoAVIF) {
            varies = true
            animatedFormat = negotiatedAnimation(request)
            format = negotiatedFormat(request) ?? format
        }
        let limits = sourceLimits(options.output)
        let variant = Variant(
            options, format: format, limits: limits, watermark: configuration.watermark,
            keepsColorProfile: !(options.stripsColorProfile ?? !configuration.keepsColorProfile),
            defaults: configuration.variantDefaults, animatedFormat: animatedFormat,
            maxResultDimension: min(limit, options.output.maxResultDimension ?? .max))
        var o = manager.defaultOptions
        o.processor = variant.processor
        o.onlyLoadFirstFrame = true
        o.cache.serializer = variant.serializer
        o.cache.storesOriginal = true
        // Answers are bytes: a decoded image kept in memory would only cost RSS (a new size of a
        // known source starts from the source's bytes on disk, and a variant is served as stored).
        o.cache.memory.expiration = .expired
        let skip = options.output.skip.union(configuration.skipProcessingFormats)
        let attachment = options.attachment ?? configuration.returnsAttachment
        var plan = Plan(
            source: source, options: o, maxAge: maxAge, variesOnAccept: varies, expires: options.expires,
            key: source.absoluteString + "\u{0}" + o.processorIdentifier,
            disposition: options.filename != nil || attachment
                ? (options.filename ?? ContentDisposition.stem(of: source), attachment) : nil,
            passThrough: options.output.raw ? .raw : skip.isEmpty ? nil : .skip(skip, format: format))
        plan.sourceLimits = limits
        return plan
    }

    /// The format `Accept` chooses where the request names none: AVIF with `--auto-avif` (it wins),
    /// else WebP with `--auto-webp`; `nil`: the source's own rule.
    func negotiatedFormat(_ request: ServiceRequest) -> String? {
        guard configuration.autoAVIF || configuration.autoWebP else { return nil }
        let accept = request.header("Accept")?.lowercased() ?? ""
        if configuration.autoAVIF && accept.contains("image/avif") && ImageFormat.avif.isEncodable { return "avif" }
        if configuration.autoWebP && accept.contains("image/webp") { return "webp" }
        return nil
    }

    /// The format `Accept` chooses for an animated source where the request names none: WebP when
    /// the client takes it and the server negotiates (AVIF here has no animations); `nil`: the
    /// source's own rule.
    func negotiatedAnimation(_ request: ServiceRequest) -> String? {
        guard configuration.autoAVIF || configuration.autoWebP else { return nil }
        return request.header("Accept")?.lowercased().contains("image/webp") == true ? "webp" : nil
    }

    /// The server's limits on a source, tightened (never loosened) by `msr`, `msfs`, `maf` and
    /// `mafr`. imgproxy's meaning: `msr` bounds an animation's frames together unless `mafr` bounds
    /// each frame; `maf` (and `--max-animation-frames`) is how many frames are processed, from the
    /// first, where `--max-frames` refuses a source that declares more.
    func sourceLimits(_ o: OutputOptions) -> Variant.SourceLimits {
        func pixels(_ megapixels: Double?) -> Int {
            megapixels.map { Int(min(Double(Int.max / 2), ($0 * 1_000_000).rounded())) } ?? .max
        }
        var limits = Variant.SourceLimits(
            pixels: min(configuration.maxSourcePixels, pixels(o.maxSrcResolution)),
            frames: configuration.maxFrames, framePixels: configuration.maxFramePixels,
            quality: configuration.decodeQuality)
        limits.animationFrames = min(configuration.maxAnimationFrames, o.maxAnimationFrames ?? .max)
        limits.timeLimit = configuration.requestTimeout.map { .milliseconds(Int($0 * 1000)) }
        if o.maxAnimationFrameResolution == nil, o.maxSrcResolution != nil {
            limits.framePixels = min(limits.framePixels, pixels(o.maxSrcResolution))
        }
        limits.animationFramePixels = min(configuration.maxAnimationFramePixels, pixels(o.maxAnimationFrameResolution))
        limits.bytes = o.maxSrcFileSize ?? .max
        return limits
    }
}
