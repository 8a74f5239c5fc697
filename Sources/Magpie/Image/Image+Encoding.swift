internal import CMagpie

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
        var o = magpie_encode_options()
        magpie_encode_options_init(&o)
        switch format {
        case .png(let level):
            o.format = MAGPIE_FORMAT_PNG
            o.compression_level = Int32(clamping: level)
        case .jpeg(let quality, let subsampling):
            o.format = MAGPIE_FORMAT_JPEG
            o.quality = Int32(clamping: quality)
            o.subsampling = subsampling == .yuv444 ? MAGPIE_SUBSAMPLING_444 : MAGPIE_SUBSAMPLING_420
        }
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        let status = pixels.withUnsafeBufferPointer { p in
            magpie_encode(p.baseAddress, UInt32(width), UInt32(height), width * 4, &o, &out, &size)
        }
        try CoreBridge.checkEncoding(status)
        defer { magpie_free(out) }
        return [UInt8](UnsafeBufferPointer(start: out, count: size))
    }
}
