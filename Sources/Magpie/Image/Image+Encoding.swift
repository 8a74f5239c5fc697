/// An output format with its settings.
public enum EncodingFormat: Sendable, Hashable {
    /// PNG, zlib level 0–9. RGB when every pixel is opaque, else RGBA.
    case png(compressionLevel: Int = 6)
    /// JPEG, quality 1–100; alpha is composited over white.
    case jpeg(quality: Int = 85, chromaSubsampling: ChromaSubsampling = .yuv420)

    public enum ChromaSubsampling: Sendable, Hashable {
        case yuv420
        case yuv444
    }
}

extension Image {
    /// Encodes the first frame. Output is deterministic: the same pixels give the same bytes.
    /// - Throws: ``MagpieError/encodingFailed(_:)`` (quality out of range, say).
    public func encoded(as format: EncodingFormat) throws(MagpieError) -> [UInt8] {
        try CorePixels.encode(pixels, width: width, height: height, as: format)
    }
}
