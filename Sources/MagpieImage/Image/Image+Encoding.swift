/// An output format with its settings. What each case is (its format, lossy or not, its quality)
/// is its row of the encoder table, `EncodingFormat+Table.swift`.
public enum EncodingFormat: Sendable, Hashable {
    /// PNG, zlib level 0–9. RGB when every pixel is opaque, else RGBA.
    case png(compressionLevel: Int = 6)
    /// PNG with a palette of at most `colors` (2–256) from libimagequant (loaded on first use, as
    /// for GIF; pngquant's and libvips's quantizer), dithered, at the smallest bit depth that holds
    /// it, alpha kept in a tRNS chunk. Usually a third to a half of a truecolour PNG's size for a
    /// photo. ``ImageFormat/palettesAvailable`` says whether this machine has libimagequant.
    case pngPalette(colors: Int = 256, compressionLevel: Int = 6)
    /// JPEG, quality 1–100; alpha is composited over white.
    case jpeg(quality: Int = 85, chromaSubsampling: ChromaSubsampling = .yuv420)
    /// Progressive JPEG (libjpeg's simple progression, as `cjpeg -progressive`, imgproxy's
    /// `IMGPROXY_JPEG_PROGRESSIVE`, thumbor's `PROGRESSIVE_JPEG`): the same coefficients as
    /// ``jpeg(quality:chromaSubsampling:)`` in several scans, coarse to fine, so a browser draws the
    /// whole image early; usually a few percent smaller, a little slower to write.
    case jpegProgressive(quality: Int = 85, chromaSubsampling: ChromaSubsampling = .yuv420)
    /// Lossy WebP, quality 1–100, `method` 0 (fast) – 6 (small, cwebp's `-m`), from libwebp's
    /// `preset` (cwebp's `-preset`); alpha is kept, and left out when every pixel is opaque.
    case webp(quality: Int = 85, method: Int = 4, preset: WebPPreset = .default)
    /// Lossless WebP; `effort` 0–100 is cwebp's `-q` with `-lossless`. Colour under fully
    /// transparent pixels is not kept.
    case webpLossless(effort: Int = 75, method: Int = 4)
    /// AVIF (AV1 through libavif, loaded on first use), quality 1–100 (mapped onto the AV1
    /// quantizer as libavif's own quality is), `speed` 0 (slowest, smallest) – 10; 4:2:0, alpha
    /// kept when a pixel is not opaque. Speed 8, the default: a 512-px thumbnail in about 80 ms on
    /// one core, 10% smaller than at 9 and four times faster than at 6.
    case avif(quality: Int = 60, speed: Int = 8)
    /// JPEG XL (libjxl, loaded on first use), a bare codestream: quality 1–100 mapped onto libjxl's
    /// distance as libjxl maps it (90 is distance 1, "visually lossless"; 100 is lossless, every
    /// sample kept), `effort` 1 (fastest) – 9 (smallest), cjxl's `-e`. Alpha kept when a pixel is
    /// not opaque; the colour profile embedded, else sRGB signalled. One thread, deterministic.
    case jxl(quality: Int = 75, effort: Int = 7)
    /// GIF through giflib, palettes from libimagequant (loaded on first use; GPL-3.0, see the
    /// README): the first frame's palette is the global one, a frame it shows badly gets its own;
    /// alpha below 128 is transparent. `dithering` 0 (none, the default: smaller, and no shimmer
    /// between frames) – 100.
    case gif(dithering: Int = 0)

    public enum ChromaSubsampling: Sendable, Hashable {
        case yuv420
        case yuv444
    }

    /// libwebp's presets (cwebp's `-preset`, imgproxy's `IMGPROXY_WEBP_PRESET`): its filter
    /// strength, sharpness and noise shaping tuned to a kind of picture. In the C core's order.
    public enum WebPPreset: String, Sendable, Hashable, CaseIterable {
        case `default`, picture, photo, drawing, icon, text

        /// The C core's value (`magpie_webp_preset`): the case's place in this order.
        var coreIndex: Int { Self.allCases.firstIndex(of: self) ?? 0 }
    }

    /// Whether this build writes animations in this encoding (WebP; GIF where libimagequant is).
    public var animates: Bool { CoreAnimationEncoder.animates(core) }
}

extension Image {
    /// Encodes the image: an animation (several frames) as an animation where the format has them
    /// (``EncodingFormat/animates``: WebP, GIF), durations and loop count kept; otherwise the first
    /// frame. An image carrying its encoded animation (``animation``) in this format is those bytes.
    /// Output is deterministic: the same pixels give the same bytes.
    /// - Throws: ``ImageCodecError/encodingFailed(_:)`` (quality out of range, say; `unsupported` for
    ///   WebP in a build without libwebp, see ``ImageFormat/isEncodable``).
    public func encoded(as format: EncodingFormat) throws(ImageCodecError) -> [UInt8] {
        if let animation, animation.format == format.format { return animation.data }
        if frames.count > 1 && format.animates {
            let encoder = try AnimationEncoder(width: width, height: height, format: format, loopCount: loopCount)
            for frame in frames { try encoder.add(frame.pixels, delay: frame.delay) }
            return try encoder.finish()
        }
        return try CorePixels.encode(pixels, width: width, height: height, as: format.core, profile: colorProfile)
    }
}
