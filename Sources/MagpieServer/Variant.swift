import Magpie

/// The processor and encoding a request's options give, as the library's pipeline takes them.
struct Variant: Sendable {
    /// Resizes as asked; its identifier also names the output encoding, so each encoding of a
    /// size is its own cache entry while the source stays under the plain key.
    let processor: any ImageProcessor
    let serializer: OutputSerializer

    /// What the server decides where a request does not (imgproxy's `IMGPROXY_QUALITY`,
    /// `IMGPROXY_FORMAT_QUALITY`, `IMGPROXY_AUTO_ROTATE`, `IMGPROXY_ENFORCE_THUMBNAIL`,
    /// `IMGPROXY_KEEP_COPYRIGHT`).
    struct Defaults: Sendable {
        var quality = 80
        var formatQuality: [String: Int] = [:]
        var autoRotate = true
        var enforcesThumbnail = false
        var keepsCopyright = false
        var encoders = OutputSerializer.baseline
        /// imgproxy's `IMGPROXY_PREFERRED_FORMATS` (file extensions); nil: Magpie's own rule.
        var preferredFormats: [String]?
    }

    /// - Parameter animatedFormat: the format an animated source is written in: the one the request
    ///   named, or the one the client's `Accept` chose for animations ("webp"); nil: the source's
    ///   own, else WebP.
    /// - Parameter maxResultDimension: the largest side of a result (imgproxy's
    ///   `max_result_dimension`: the server's, or `mrd` below it; 0: none): a larger result is
    ///   scaled down to it, padding and extension included.
    init(
        _ options: ProcessingOptions, format: String, limits: SourceLimits, watermark: OverlayProcessor? = nil,
        keepsColorProfile: Bool = false, defaults: Defaults = Defaults(), animatedFormat: String? = nil,
        maxResultDimension: Int = 0
    ) {
        let autoRotate = options.output.autoRotate ?? defaults.autoRotate
        let thumbnail = options.output.enforceThumbnail ?? defaults.enforcesThumbnail
        // The geometry is of the result, after any rotation (as imgproxy has it); the turn is
        // composed into the decode.
        let g = options.geometry
        let request = ImgproxyGeometry.Request(
            type: options.resizingType, width: options.width, height: options.height, enlarge: options.enlarge,
            dpr: options.dpr, zoomX: g.zoomX, zoomY: g.zoomY, minWidth: g.minWidth, minHeight: g.minHeight,
            cropWidth: g.crop?.width ?? 0, cropHeight: g.crop?.height ?? 0, extend: g.extend != nil,
            extendAspectRatio: g.extendAspectRatio != nil, padding: options.effects.padding ?? [0, 0, 0, 0],
            maxResultDimension: maxResultDimension)
        var resize = Resize(
            request: request, gravity: options.gravity, quality: limits.quality, transform: options.effects.orientation,
            keepsColorProfile: keepsColorProfile)
        resize.cropGravity = g.crop?.gravity
        resize.linearLight = limits.linearLight
        (resize.appliesOrientation, resize.enforcesThumbnail) = (autoRotate, thumbnail)
        resize.after = { geometry in
            Self.effects(options, geometry: geometry, request: request, watermark: watermark)
        }
        // Trim first (imgproxy's order: trim, crop, resize), on the whole decoded source.
        let trim = g.trim.map {
            var t = TrimProcessor(
                threshold: $0.threshold, color: $0.color, equalHorizontal: $0.equalHorizontal,
                equalVertical: $0.equalVertical)
            t.appliesOrientation = autoRotate
            return t
        }
        let inner: any ImageProcessor = trim.map { CompositeProcessor($0, resize) } ?? resize
        serializer = OutputSerializer(
            format: format, quality: options.quality ?? defaults.quality,
            formatQuality: options.quality != nil
                ? [:] : defaults.formatQuality.merging(options.output.formatQuality) { $1 },
            maxBytes: options.output.maxBytes, keepsCopyright: options.output.keepCopyright ?? defaults.keepsCopyright,
            encoders: defaults.encoders,
            preferred: format == "auto" ? defaults.preferredFormats : nil)
        // With preferred formats, an animation the request names no format for is written in the
        // first of them that animates (imgproxy's rule), else its own.
        let preferredAnimated = defaults.preferredFormats?.first { ext in
            ImageFormat(fileExtension: ext).flatMap { EncodingFormat.standard($0, quality: 80) }?.animates == true
        }
        let animation = Self.animation(
            inner, animatedFormat: animatedFormat ?? (format == "auto" ? preferredAnimated : nil),
            trims: g.trim != nil, limits: limits,
            serializer: serializer)
        let decode = limits.quality == .fast ? "|fast" : limits.quality == .full ? "|full" : ""
        var tag =
            "\(options.variantName)\(decode)\(limits.linearLight ? "|linear" : "")\(keepsColorProfile ? "|kcp" : "")"
        tag += (autoRotate ? "" : "|ar0") + (thumbnail ? "|eth" : "") + "|\(serializer.name)"
        if maxResultDimension > 0 { tag += "|mrd\(maxResultDimension)" }
        if let animation {
            let written = animation.format.map { $0.format.rawValue } ?? "own"
            tag += "|anim(\(written),\(animation.maxFrames))"
        }
        processor = Tagged(inner: inner, tag: tag, limits: limits, animation: animation)
    }

    /// How an animated source is processed: frame by frame into the format asked for where it
    /// animates (WebP, GIF), for `auto` the one `Accept` chose, else the source's own (or WebP);
    /// nil (the first frame, as a still) for a format without animations, a trim (imgproxy does not
    /// trim animations either), or at most one frame.
    static func animation(
        _ chain: any ImageProcessor, animatedFormat: String?, trims: Bool, limits: SourceLimits,
        serializer: OutputSerializer
    ) -> AnimationProcessor? {
        guard !trims, limits.animationFrames > 1 else { return nil }
        let named = animatedFormat
        var encoding: EncodingFormat?
        if let named {
            guard let f = ImageFormat(fileExtension: named),
                let e = EncodingFormat.standard(f, quality: serializer.quality(for: f)), e.animates
            else { return nil }
            encoding = e.tuned(serializer.encoders)
        }
        return AnimationProcessor(
            chain, format: encoding, maxFrames: limits.animationFrames, timeLimit: limits.timeLimit)
    }

    static func anchor(_ gravity: ProcessingOptions.Gravity) -> CropAnchor {
        switch gravity {
        case .ce: return .center
        case .no: return CropAnchor(x: 0.5, y: 0)
        case .so: return CropAnchor(x: 0.5, y: 1)
        case .ea: return CropAnchor(x: 1, y: 0.5)
        case .we: return CropAnchor(x: 0, y: 0.5)
        case .noea: return CropAnchor(x: 1, y: 0)
        case .nowe: return CropAnchor(x: 0, y: 0)
        case .soea: return CropAnchor(x: 1, y: 1)
        case .sowe: return CropAnchor(x: 0, y: 1)
        }
    }

    /// What a source may be, read from its header before anything is decoded.
    struct SourceLimits: Sendable {
        /// Width × height.
        var pixels: Int
        /// Frames the file declares.
        var frames: Int
        /// Frames × width × height.
        var framePixels: Int
        /// How far a decode may shrink on load (not a limit, but decided server-wide with them).
        var quality: DecodingOptions.Quality = .standard
        /// Resize in linear light (decided server-wide, as ``quality``).
        var linearLight = false
        /// Bytes of the source (`msfs`; the download itself is bounded by the server's limit).
        var bytes = Int.max
        /// Width × height of an animation's frame (`mafr`).
        var animationFramePixels = Int.max
        /// Frames of an animation processed, from the first (`--max-animation-frames`, `maf`);
        /// 1: an animation is its first frame.
        var animationFrames = Int.max
        /// How long an animation's frames may take (the request's timeout).
        var timeLimit: Duration?
    }

    /// A processor under another identifier, that refuses a source over the limits from its
    /// header, before anything is decoded.
    struct Tagged: ImageProcessor {
        let inner: any ImageProcessor
        let tag: String
        let limits: SourceLimits
        /// An animated source's frames, one at a time, through `inner` into an animation.
        var animation: AnimationProcessor?
        var identifier: String { "magpie.serve(\(tag))" }
        func process(_ input: ImageProcessingInput, firstFrameOnly: Bool) throws -> Image {
            let (w, h, frames): (Int, Int, Int)
            switch input {
            case .data(let data):
                guard data.count <= limits.bytes else { throw SourceTooLarge(width: 0, height: 0, frames: 0) }
                let info = try ImageInfo(probing: data)
                (w, h, frames) = (info.width, info.height, max(1, info.frameCount))
            case .image(let image): (w, h, frames) = (image.width, image.height, image.frames.count)
            }
            let area = w.multipliedReportingOverflow(by: h)
            let all = area.partialValue.multipliedReportingOverflow(by: frames)
            guard !area.overflow, area.partialValue <= limits.pixels, frames <= limits.frames, !all.overflow,
                all.partialValue <= limits.framePixels, frames == 1 || area.partialValue <= limits.animationFramePixels
            else {
                throw SourceTooLarge(width: w, height: h, frames: frames)
            }
            if frames > 1, let animation { return try animation.process(input, firstFrameOnly: false) }
            return try inner.process(input, firstFrameOnly: true)
        }
    }

    /// A source over one of the ``SourceLimits``.
    struct SourceTooLarge: Error, CustomStringConvertible {
        let width: Int
        let height: Int
        let frames: Int
        var description: String { "source of \(frames) × \(width)×\(height) pixels is over a limit" }
    }
}
