import Magpie

/// The processor and encoding a request's options give, as the library's pipeline takes them.
struct Variant: Sendable {
    /// Resizes as asked; its identifier also names the output encoding, so each encoding of a
    /// size is its own cache entry while the source stays under the plain key.
    let processor: any ImageProcessor
    let serializer: OutputSerializer

    init(
        _ options: ProcessingOptions, format: String, limits: SourceLimits, watermark: OverlayProcessor? = nil,
        keepsColorProfile: Bool = false
    ) {
        // The size asked for is of the result, after any rotation (as imgproxy has it): the resize
        // runs before the turn, on the box and gravity turned back.
        let turn = options.effects.orientation
        let g = options.geometry
        var w = options.width * options.dpr
        var h = options.height * options.dpr
        var (mw, mh, zx, zy) = (g.minWidth * options.dpr, g.minHeight * options.dpr, g.zoomX, g.zoomY)
        if turn.swapsAxes { (w, h, mw, mh, zx, zy) = (h, w, mh, mw, zy, zx) }
        var resize: Resize?
        if w > 0 || h > 0 || g.changesScale {
            var r = Resize(
                type: options.resizingType, width: w, height: h, enlarge: options.enlarge,
                anchor: options.gravity.anchor(dpr: options.dpr).before(turn), quality: limits.quality,
                transform: turn, keepsColorProfile: keepsColorProfile)
            // The crop is of the source, before any turn; its gravity defaults to `g`'s.
            r.crop = g.crop.map { ($0.width, $0.height, ($0.gravity ?? options.gravity).anchor(dpr: 1)) }
            (r.minWidth, r.minHeight, r.zoomX, r.zoomY) = (mw, mh, zx, zy)
            resize = r
        }
        // Without a resize the first effect decodes: a kept profile needs a decode of its own first.
        let decode: (any ImageProcessor)? =
            resize == nil && keepsColorProfile ? DefaultImageProcessor(keepsColorProfile: true) : nil
        let chain =
            [resize ?? decode].compactMap { $0 }
            + Self.effects(
                options.effects, dpr: options.dpr, watermark: watermark, turning: resize == nil,
                extend: Self.extensions(options, format: format))
        let inner = chain.first.map { first in chain.dropFirst().reduce(first) { CompositeProcessor($0, $1) } }
        serializer = OutputSerializer(format: format, quality: options.quality ?? 80)
        processor = Tagged(
            inner: inner ?? DefaultImageProcessor(),
            tag: "\(options.variantName)\(limits.quality == .fast ? "|fast" : "")\(keepsColorProfile ? "|kcp" : "")"
                + "|\(serializer.name)",
            limits: limits)
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
    }

    /// A processor under another identifier, that refuses a source over the limits from its
    /// header, before anything is decoded.
    struct Tagged: ImageProcessor {
        let inner: any ImageProcessor
        let tag: String
        let limits: SourceLimits
        var identifier: String { "magpie.serve(\(tag))" }
        func process(_ input: ImageProcessingInput, firstFrameOnly: Bool) throws -> Image {
            let (w, h, frames): (Int, Int, Int)
            switch input {
            case .data(let data):
                let info = try ImageInfo(probing: data)
                (w, h, frames) = (info.width, info.height, max(1, info.frameCount))
            case .image(let image): (w, h, frames) = (image.width, image.height, image.frames.count)
            }
            let area = w.multipliedReportingOverflow(by: h)
            let all = area.partialValue.multipliedReportingOverflow(by: frames)
            guard !area.overflow, area.partialValue <= limits.pixels, frames <= limits.frames, !all.overflow,
                all.partialValue <= limits.framePixels
            else {
                throw SourceTooLarge(width: w, height: h, frames: frames)
            }
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

/// Encodes results as the request asks: `jpg`, `png`, `webp`, or `auto`: the source's format for
/// JPEG and PNG, PNG for a GIF's first frame and other sources with alpha, JPEG otherwise.
struct OutputSerializer: CacheSerializer, CustomStringConvertible {
    let format: String
    let quality: Int

    var name: String { "\(format),q\(quality)" }
    var description: String { "OutputSerializer(\(name))" }

    func data(for image: Image, original: [UInt8]?, isProcessed: Bool) throws -> [UInt8] {
        try image.encoded(as: encoding(for: image, original: original))
    }

    func image(from data: [UInt8], options: DecodingOptions) throws -> Image {
        try Image(decoding: data, options: options)
    }

    func encoding(for image: Image, original: [UInt8]?) -> EncodingFormat {
        if let named = ImageFormat(fileExtension: format),
            let encoding = EncodingFormat.standard(named, quality: quality)
        {
            return encoding
        }
        let source = original.map { bytes in bytes.withUnsafeBytes { ImageFormat(sniffing: $0) } } ?? .unknown
        if source == .jpeg { return .jpeg(quality: quality) }
        if source == .png || source == .gif || image.hasAlpha { return .png() }
        return .jpeg(quality: quality)
    }
}
