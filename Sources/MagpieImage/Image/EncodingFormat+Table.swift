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
        /// Whether a lower quality makes a smaller file by losing detail (JPEG, lossy WebP, AVIF).
        let lossy: Bool
        /// The quality 1–100 asked for, where the encoding has one.
        let quality: Int?
        /// The same encoding at another quality (itself where it has none).
        let requalified: @Sendable (Int) -> EncodingFormat
        /// The same encoding at an AVIF speed and a WebP method (itself where it has neither).
        var retuned: @Sendable (_ avifSpeed: Int, _ webpMethod: Int) -> EncodingFormat
    }

    /// This encoding's row.
    var row: Row {
        switch self {
        case .png(let level):
            return Row(
                format: .png, core: .png(compressionLevel: level), lossy: false, quality: nil,
                requalified: { _ in self },
                retuned: { _, _ in self })
        case .jpeg(let q, let sub):
            return Row(
                format: .jpeg, core: .jpeg(quality: q, fullChroma: sub == .yuv444), lossy: true, quality: q,
                requalified: { .jpeg(quality: $0, chromaSubsampling: sub) }, retuned: { _, _ in self })
        case .webp(let q, let method):
            return Row(
                format: .webp, core: .webp(quality: q, method: method), lossy: true, quality: q,
                requalified: { .webp(quality: $0, method: method) }, retuned: { .webp(quality: q, method: $1) })
        case .webpLossless(let effort, let method):
            return Row(
                format: .webp, core: .webpLossless(effort: effort, method: method), lossy: false, quality: nil,
                requalified: { _ in self }, retuned: { .webpLossless(effort: effort, method: $1) })
        case .avif(let q, let speed):
            return Row(
                format: .avif, core: .avif(quality: q, speed: speed), lossy: true, quality: q,
                requalified: { .avif(quality: $0, speed: speed) }, retuned: { s, _ in .avif(quality: q, speed: s) })
        case .gif(let dithering):
            return Row(
                format: .gif, core: .gif(dithering: dithering), lossy: false, quality: nil, requalified: { _ in self },
                retuned: { _, _ in self })
        }
    }

    /// The format written.
    public var format: ImageFormat { row.format }

    /// Whether a lower quality makes a smaller file (JPEG, lossy WebP, AVIF): what `max_bytes`
    /// lowers.
    public var isLossy: Bool { row.lossy }

    /// The quality 1–100 asked for; nil for an encoding without one (PNG, lossless WebP, GIF).
    public var quality: Int? { row.quality }

    /// This encoding at `quality`, its other settings kept (itself where it has no quality).
    public func withQuality(_ quality: Int) -> EncodingFormat { row.requalified(quality) }

    /// This encoding at an AVIF `speed` (0–10) and a WebP `method` (0–6), its other settings kept
    /// (itself where it has neither).
    public func withEffort(avifSpeed: Int, webpMethod: Int) -> EncodingFormat { row.retuned(avifSpeed, webpMethod) }

    var core: CoreEncoding { row.core }

    /// How each format the Swift layer writes is written at a quality (PNG and GIF have none), one
    /// row per format: a format the core learns to encode is written once it has a row here and a
    /// case in ``EncodingFormat``.
    static let standards: [ImageFormat: @Sendable (Int) -> EncodingFormat] = [
        .png: { _ in .png() },
        .jpeg: { .jpeg(quality: $0) },
        .webp: { .webp(quality: $0) },
        .avif: { .avif(quality: $0) },
        .gif: { _ in .gif() },
    ]

    /// The usual encoding of `format` at `quality` 1–100; nil when this build does not write it
    /// (``ImageFormat/isEncodable``).
    public static func standard(_ format: ImageFormat, quality: Int) -> EncodingFormat? {
        guard format.isEncodable, let make = standards[format] else { return nil }
        return make(quality)
    }
}
