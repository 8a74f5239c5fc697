/// The processors that change the size: downsampling while decoding, and resizing pixels.

/// Decodes straight to a smaller size: JPEGs shrink on load (DCT scaling), PNG and GIF rows
/// stream through the resampler, so the full image is never held. The pipeline's thumbnail.
public struct DownsamplingProcessor: ImageProcessor {
    public var width: Int
    public var height: Int
    public var mode: ContentMode
    public var allowsUpscaling: Bool
    public var filter: DecodingOptions.Filter
    /// `.fast` shrinks on load down to the target itself (see ``DecodingOptions/Quality``).
    public var quality: DecodingOptions.Quality
    /// Sharpening after the downscale (off by default; ``Sharpening/afterResize`` is libvips's).
    public var sharpening: Sharpening?
    /// A rotation or flip composed with the EXIF orientation while decoding (one transform); the
    /// target box is of the image before it, as if it came after the resize. A chain of this
    /// processor then a ``TransformProcessor`` decodes this way.
    public var transform: Orientation
    /// Keep the source's colour profile rather than convert to sRGB
    /// (``DecodingOptions/keepsColorProfile``).
    public var keepsColorProfile = false
    /// Apply the source's EXIF orientation (imgproxy's `ar`, on by default); off: pixels as stored.
    public var appliesOrientation = true
    /// Decode a JPEG's EXIF thumbnail where it is large enough (``DecodingOptions/usesEmbeddedThumbnail``).
    public var usesEmbeddedThumbnail = false
    /// Filter in linear light (``DecodingOptions/linearLight``).
    public var linearLight = false

    public init(
        width: Int, height: Int, mode: ContentMode = .fit, allowsUpscaling: Bool = false,
        filter: DecodingOptions.Filter = .lanczos3, quality: DecodingOptions.Quality = .standard,
        sharpening: Sharpening? = nil, transform: Orientation = .up, keepsColorProfile: Bool = false
    ) {
        self.keepsColorProfile = keepsColorProfile
        self.width = max(1, width)
        self.height = max(1, height)
        self.mode = mode
        self.allowsUpscaling = allowsUpscaling
        self.filter = filter
        self.quality = quality
        self.sharpening = sharpening
        self.transform = transform
    }

    /// Names every parameter that changes pixels (see ``ImageProcessor/identifier``); standard
    /// quality, no sharpening and no transform add nothing, so identifiers made before they
    /// existed still match.
    public var identifier: String {
        let up = allowsUpscaling ? ",up" : ""
        let fast = quality == .fast ? ",fast" : quality == .full ? ",full" : ""
        let sharp = sharpening.map { ",sharpen:\($0.name)" } ?? ""
        let turn = transform == .up ? "" : ",orient:\(transform.rawValue)"
        let profile = keepsColorProfile ? ",kcp" : ""
        let stored =
            (appliesOrientation ? "" : ",as-stored") + (usesEmbeddedThumbnail ? ",thumbnail" : "")
            + (linearLight ? ",linear" : "")
        return
            "magpie.downsample(\(mode.rawValue),\(width)x\(height)\(up)\(fast)\(filter.identifierSuffix)\(sharp)\(turn)\(profile)\(stored))"
    }

    public func process(_ input: ImageProcessingInput, firstFrameOnly: Bool) throws -> Image {
        let resized: Image
        switch input {
        case .data(let data):
            resized = try decode(data, decodingOptions(for: .data(data)), firstFrameOnly: firstFrameOnly)
        case .image(let image):
            let source = firstFrameOnly ? image.firstFrame : image
            var resizing = ResizingProcessor(
                width: width, height: height, mode: mode, anchor: .center, allowsUpscaling: allowsUpscaling,
                filter: filter)
            resizing.linearLight = linearLight
            resized = try resizing.resize(source).transformed(transform)
        }
        guard let sharpening else { return resized }
        return try resized.sharpened(sharpening)
    }

    /// The decode this processor does of `data` (the resize, filter and transform in one).
    func decodingOptions(for source: EncodedSource) throws -> DecodingOptions {
        // The box is of the image before the transform: turned with it when it swaps the axes.
        let (bw, bh) = transform.swapsAxes ? (height, width) : (width, height)
        let resize: DecodingOptions.Resize
        switch mode {
        case .fit: resize = .fit(width: bw, height: bh)
        case .fill: resize = .fill(width: bw, height: bh)
        case .exact: resize = .exact(width: bw, height: bh)
        case .cover:
            // The header gives the upright size; the covering size keeps its aspect ratio.
            var probe = DecodingOptions.default
            probe.transform = transform
            probe.appliesOrientation = appliesOrientation
            probe.usesEmbeddedThumbnail = usesEmbeddedThumbnail
            let (w, h) = try source.outputSize(options: probe)
            let (sw, sh) = Geometry.scaled(w, h, to: bw, bh, mode: .cover, upscale: allowsUpscaling)
            resize = .exact(width: sw, height: sh)
        }
        var options = DecodingOptions(
            resize: resize, filter: filter, allowsUpscaling: allowsUpscaling, quality: quality)
        options.transform = transform
        options.keepsColorProfile = keepsColorProfile
        options.appliesOrientation = appliesOrientation
        options.usesEmbeddedThumbnail = usesEmbeddedThumbnail
        options.linearLight = linearLight
        return options
    }

    /// This processor with `next` composed into its transform.
    func transformed(by next: Orientation) -> DownsamplingProcessor {
        var copy = self
        copy.transform = transform.then(next)
        return copy
    }
}

/// Resizes decoded pixels (from bytes it decodes the full image first; prefer
/// ``DownsamplingProcessor`` for thumbnails). `.fill` crops at the anchor.
public struct ResizingProcessor: ImageProcessor {
    public var width: Int
    public var height: Int
    public var mode: ContentMode
    public var anchor: CropAnchor
    public var allowsUpscaling: Bool
    public var filter: DecodingOptions.Filter
    /// Sharpening after the resize (off by default; ``Sharpening/afterResize`` is libvips's).
    public var sharpening: Sharpening?
    /// Filter in linear light (``DecodingOptions/linearLight``).
    public var linearLight = false

    public init(
        width: Int, height: Int, mode: ContentMode = .fit, anchor: CropAnchor = .center, allowsUpscaling: Bool = false,
        filter: DecodingOptions.Filter = .lanczos3, sharpening: Sharpening? = nil
    ) {
        self.width = max(1, width)
        self.height = max(1, height)
        self.mode = mode
        self.anchor = anchor
        self.allowsUpscaling = allowsUpscaling
        self.filter = filter
        self.sharpening = sharpening
    }

    /// Names every parameter that changes pixels: the anchor only for `.fill`, the one mode
    /// that crops.
    public var identifier: String {
        let a = mode == .fill && anchor != .center ? ",anchor:\(anchor.name)" : ""
        let up = allowsUpscaling ? ",up" : ""
        let sharp = sharpening.map { ",sharpen:\($0.name)" } ?? ""
        let linear = linearLight ? ",linear" : ""
        return
            "magpie.resize(\(mode.rawValue),\(width)x\(height)\(up)\(a)\(filter.identifierSuffix)\(sharp)\(linear))"
    }

    public func process(_ input: ImageProcessingInput, firstFrameOnly: Bool) throws -> Image {
        let image: Image
        switch input {
        case .data(let data): image = try resize(decode(data, .default, firstFrameOnly: firstFrameOnly))
        case .image(let i): image = try resize(firstFrameOnly ? i.firstFrame : i)
        }
        guard let sharpening else { return image }
        return try image.sharpened(sharpening)
    }

    func resize(_ image: Image) throws(ImageCodecError) -> Image {
        let (sw, sh) = Geometry.scaled(
            image.width, image.height, to: width, height, mode: mode, upscale: allowsUpscaling || mode == .exact)
        guard mode == .fill else {
            if sw == image.width && sh == image.height { return image }
            return try image.resampled(width: sw, height: sh, filter: filter, linearLight: linearLight)
        }
        // Fill: the source window that scales onto the (possibly smaller, without upscaling) target.
        let ow = min(width, sw)
        let oh = min(height, sh)
        let scale = Double(sw) / Double(image.width)
        let ww = min(image.width, max(1, Int((Double(ow) / scale).rounded())))
        let wh = min(image.height, max(1, Int((Double(oh) / scale).rounded())))
        let (x, y) = try anchor.origin(in: image, width: ww, height: wh)
        let window = PixelRect(x: x, y: y, width: ww, height: wh)
        return try image.resampled(window: window, width: ow, height: oh, filter: filter, linearLight: linearLight)
    }
}
