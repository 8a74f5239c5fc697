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
            /// `Vary` of the answer: the request headers that can change it.
            let vary: String?
            let expires: Int?
            let key: String
            /// The `Content-Disposition` stem and kind, when `fn` or `att` asked for one.
            let disposition: (stem: String, attachment: Bool)?
            let passThrough: PassThrough?
            init(
                source: URL, options: ImageOptions, vary: String?, expires: Int?, key: String,
                disposition: (stem: String, attachment: Bool)?, passThrough: PassThrough?
            ) {
                (self.source, self.options, self.vary) = (source, options, vary)
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
            /// thumbor's `meta`: the engine calls for the source's size, as JSON (``ThumborMeta``).
            case thumborMeta(ThumborMeta)
        }
        /// The limits a source is held to (kept for `skp`, which checks them without a decode).
        var sourceLimits: Variant.SourceLimits?
        /// Fetched with the client's cookies (``withCookie(_:key:)``): answered `private`.
        var personal = false
        /// A thumbor URL's: answered with thumbor's headers (``ImageService/thumborHeaders(_:_:)``).
        var thumbor = false

        init(
            source: URL, options: ImageOptions, maxAge: Int, vary: String?, expires: Int?, key: String,
            disposition: (stem: String, attachment: Bool)? = nil, passThrough: PassThrough? = nil
        ) {
            parts = Parts(
                source: source, options: options, vary: vary, expires: expires, key: key,
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
                source: source, options: options, maxAge: maxAge, vary: vary, expires: expires,
                key: key + "\u{0}" + stamp, disposition: disposition, passThrough: passThrough)
            copy.sourceLimits = sourceLimits
            (copy.personal, copy.thumbor) = (personal, thumbor)
            return copy
        }

        /// This plan fetching its source with the client's `Cookie` field, under `key` (the
        /// manager's cache key for those options, whose credentials part keeps it apart from
        /// every other client's and from the shared entries).
        func withCookie(_ cookie: String, key makeKey: (ImageOptions) -> String) -> Plan {
            var options = parts.options
            options.request.headers.set("Cookie", cookie)
            var copy = Plan(
                source: source, options: options, maxAge: maxAge, vary: vary, expires: expires,
                key: makeKey(options) + "\u{0}" + options.processorIdentifier, disposition: disposition,
                passThrough: passThrough)
            copy.sourceLimits = sourceLimits
            (copy.personal, copy.thumbor) = (true, thumbor)
            return copy
        }

        var source: URL { parts.source }
        var options: ImageOptions { parts.options }
        var vary: String? { parts.vary }
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
        let features = ClientFeatures(request, configuration)
        var options = try ProcessingOptions.parse(
            path.options, presets: configuration.presets, rules: rules, named: path.presets, hints: features)
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
        // What the client's headers change: the format (`--auto-*` where none is named,
        // `--enforce-*` over a named one; an animation's AVIF or JPEG XL falls to WebP or the one named) and
        // the client hints' defaults; `Vary` names what can change the answer.
        let named: String? = format == "auto" ? nil : format
        let c = configuration
        let enforces = c.enforceWebP || c.enforceAVIF || c.enforceJXL
        let acceptMatters = named == nil ? (enforces || c.autoWebP || c.autoAVIF || c.autoJXL) : enforces
        let animatedFormat = features.animatedFormat(named: named)
        format = features.format(named: named) ?? "auto"
        var varyNames = acceptMatters ? ["Accept"] : []
        if c.clientHints { varyNames += ["Sec-CH-DPR", "DPR", "Sec-CH-Width", "Width"] }
        let vary = varyNames.isEmpty ? nil : varyNames.joined(separator: ", ")
        let limits = sourceLimits(options.output)
        let variant = Variant(
            options, format: format, limits: limits, watermark: configuration.watermark,
            keepsColorProfile: !(options.stripsColorProfile ?? !configuration.keepsColorProfile),
            defaults: configuration.variantDefaults, animatedFormat: animatedFormat,
            maxResultDimension: min(limit, options.output.maxResultDimension ?? .max))
        var o = manager.defaultOptions
        // A client waits for this one: ahead of any prefetch waiting for a download slot.
        o.request.priority = .high
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
            source: source, options: o, maxAge: maxAge, vary: vary, expires: options.expires,
            key: source.absoluteString + "\u{0}" + o.processorIdentifier,
            disposition: options.filename != nil || attachment
                ? (options.filename ?? ContentDisposition.stem(of: source), attachment) : nil,
            passThrough: options.output.raw ? .raw : skip.isEmpty ? nil : .skip(skip, format: format))
        plan.sourceLimits = limits
        return plan
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
        limits.linearLight = configuration.linearLight
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
