/// The encoder table: what each ``EncodingFormat`` is, in one place, as the option and codec
/// tables are. Every question about an encoding (the format it writes, the core's encoding, whether
/// it loses detail, its quality and the same encoding at another, its default quality) is asked of
/// its row, so no other file switches over the cases. Adding an encoding is a case of
/// ``EncodingFormat``, its row in ``row`` and, if it is a format's usual one, its entry in
/// ``standards``.
extension EncodingFormat {
    /// One encoding's facts.
    struct Row: Sendable {
        /// The format written.
        let format: ImageFormat
        /// The core's encoding (its C options follow from it: `CorePixels`).
        let core: CoreEncoding
        /// Whether a lower quality makes a smaller file by losing detail (JPEG, lossy WebP, AVIF, JPEG XL).
        let lossy: Bool
        /// The quality 1–100 asked for, where the encoding has one.
        let quality: Int?
        /// The same encoding at another quality (itself where it has none).
        let requalified: @Sendable (Int) -> EncodingFormat
        /// The same encoding with a server's settings for its kind (itself where none concerns it).
        var retuned: @Sendable (EncoderSettings) -> EncodingFormat
    }

    /// This encoding's row.
    var row: Row {
        switch self {
        case .png(let level):
            return Row(
                format: .png, core: .png(compressionLevel: level, colors: 0), lossy: false, quality: nil,
                requalified: { _ in self },
                retuned: { s -> EncodingFormat in
                    // A level the encoding was given stands; the default takes the server's.
                    let level = level == 6 ? s.pngCompressionLevel : level
                    guard let colors = s.pngPaletteColors else { return .png(compressionLevel: level) }
                    return .pngPalette(colors: colors, compressionLevel: level)
                })
        case .pngPalette(let colors, let level):
            return Row(
                format: .png, core: .png(compressionLevel: level, colors: colors), lossy: false, quality: nil,
                requalified: { _ in self },
                retuned: { s -> EncodingFormat in
                    .pngPalette(colors: s.pngPaletteColors ?? colors, compressionLevel: level)
                })
        case .jpeg(let q, let sub):
            return Row(
                format: .jpeg, core: .jpeg(quality: q, fullChroma: sub == .yuv444, progressive: false), lossy: true,
                quality: q, requalified: { .jpeg(quality: $0, chromaSubsampling: sub) },
                retuned: { s in s.jpegProgressive ? .jpegProgressive(quality: q, chromaSubsampling: sub) : self })
        case .jpegProgressive(let q, let sub):
            return Row(
                format: .jpeg, core: .jpeg(quality: q, fullChroma: sub == .yuv444, progressive: true), lossy: true,
                quality: q, requalified: { .jpegProgressive(quality: $0, chromaSubsampling: sub) },
                retuned: { _ in self })
        case .webp(let q, let method, let preset):
            return Row(
                format: .webp, core: .webp(quality: q, method: method, preset: preset.coreIndex), lossy: true,
                quality: q,
                requalified: { .webp(quality: $0, method: method, preset: preset) },
                retuned: { .webp(quality: q, method: $0.webpMethod, preset: $0.webpPreset) })
        case .webpLossless(let effort, let method):
            return Row(
                format: .webp, core: .webpLossless(effort: effort, method: method), lossy: false, quality: nil,
                requalified: { _ in self }, retuned: { .webpLossless(effort: effort, method: $0.webpMethod) })
        case .avif(let q, let speed):
            return Row(
                format: .avif, core: .avif(quality: q, speed: speed), lossy: true, quality: q,
                requalified: { .avif(quality: $0, speed: speed) }, retuned: { .avif(quality: q, speed: $0.avifSpeed) })
        case .jxl(let q, let effort):
            return Row(
                format: .jxl, core: .jxl(quality: q, effort: effort), lossy: q < 100, quality: q,
                requalified: { .jxl(quality: $0, effort: effort) }, retuned: { .jxl(quality: q, effort: $0.jxlEffort) })
        case .gif(let dithering):
            return Row(
                format: .gif, core: .gif(dithering: dithering), lossy: false, quality: nil, requalified: { _ in self },
                retuned: { _ in self })
        }
    }

    /// The format written.
    public var format: ImageFormat { row.format }

    /// Whether a lower quality makes a smaller file (JPEG, lossy WebP, AVIF, JPEG XL below 100):
    /// what `max_bytes` lowers.
    public var isLossy: Bool { row.lossy }

    /// The quality 1–100 asked for; nil for an encoding without one (PNG, lossless WebP, GIF).
    public var quality: Int? { row.quality }

    /// This encoding at `quality`, its other settings kept (itself where it has no quality).
    public func withQuality(_ quality: Int) -> EncodingFormat { row.requalified(quality) }

    /// This encoding with the settings `settings` holds for its kind (a server's AVIF speed, WebP
    /// method and preset, JPEG XL effort, PNG palette), its quality kept; itself where none concerns it.
    public func tuned(_ settings: EncoderSettings) -> EncodingFormat { row.retuned(settings) }

    var core: CoreEncoding { row.core }

    /// How each format the Swift layer writes is written at a quality (PNG and GIF have none), one
    /// row per format: a format the core learns to encode is written once it has a row here and a
    /// case in ``EncodingFormat``.
    static let standards: [ImageFormat: @Sendable (Int) -> EncodingFormat] = [
        .png: { _ in .png() },
        .jpeg: { .jpeg(quality: $0) },
        .webp: { .webp(quality: $0) },
        .avif: { .avif(quality: $0) },
        .jxl: { .jxl(quality: $0) },
        .gif: { _ in .gif() },
    ]

    /// The usual encoding of `format` at `quality` 1–100; nil when this build does not write it
    /// (``ImageFormat/isEncodable``).
    public static func standard(_ format: ImageFormat, quality: Int) -> EncodingFormat? {
        guard format.isEncodable, let make = standards[format] else { return nil }
        return make(quality)
    }
}

/// What a server sets for every encoding of a kind, as imgproxy's `AVIF_SPEED`, `WEBP_EFFORT`,
/// `WEBP_PRESET`, `JXL_EFFORT`, `PNG_QUANTIZE` and `JPEG_PROGRESSIVE` do: ``EncodingFormat/tuned(_:)`` gives each
/// encoding the ones for its kind. The defaults leave every encoding as its own defaults make it.
public struct EncoderSettings: Sendable, Hashable {
    /// AVIF's speed, 0 (slowest, smallest) – 10.
    public var avifSpeed = 8
    /// WebP's method, 0 (fast) – 6 (small).
    public var webpMethod = 4
    /// WebP's preset.
    public var webpPreset = EncodingFormat.WebPPreset.default
    /// JPEG XL's effort, 1 (fastest) – 9 (smallest).
    public var jxlEffort = 7
    /// PNG written with a palette of at most this many colours (2–256); nil: truecolour.
    public var pngPaletteColors: Int?
    /// JPEG written progressive (``EncodingFormat/jpegProgressive(quality:chromaSubsampling:)``).
    public var jpegProgressive: Bool
    /// PNG's zlib level, 0–9, for an encoding at the default (6).
    public var pngCompressionLevel: Int

    public init(
        avifSpeed: Int = 8, webpMethod: Int = 4, webpPreset: EncodingFormat.WebPPreset = .default, jxlEffort: Int = 7,
        pngPaletteColors: Int? = nil, jpegProgressive: Bool = false, pngCompressionLevel: Int = 6
    ) {
        self.jpegProgressive = jpegProgressive
        self.pngCompressionLevel = pngCompressionLevel
        self.avifSpeed = avifSpeed
        self.webpMethod = webpMethod
        self.webpPreset = webpPreset
        self.jxlEffort = jxlEffort
        self.pngPaletteColors = pngPaletteColors
    }
}
