import Magpie

/// Encodes results as the request asks: `jpg`, `png`, `webp`, `avif`, `jxl`, …, or `auto`: the source's format for
/// JPEG and PNG, PNG for a GIF's first frame and other sources with alpha, JPEG otherwise. The
/// quality is the one per format (`fq`, then the server's) unless `q` fixed it; with `maxBytes`
/// (`mb`) a lossy format's quality is lowered until the body fits.
struct OutputSerializer: CacheSerializer, Equatable, CustomStringConvertible {
    let format: String
    let quality: Int
    /// Quality by output format (file extension), where `q` did not fix one.
    var formatQuality: [String: Int] = [:]
    var maxBytes = 0
    /// `maxBytes` by thumbor's rule (its `max_bytes` filter, `reload_to_fit_in_kb`) instead of imgproxy's.
    var fitsAsThumbor = false
    /// `auto` writes an opaque result of a PNG source as JPEG (thumbor's `AUTO_PNG_TO_JPG`, `autojpg`).
    var pngToJPEG = false
    /// `kcr`: the source's copyright and artist written into the result.
    var keepsCopyright = false
    /// The server's settings for every encoding of a kind: AVIF's speed, WebP's method and preset,
    /// JPEG XL's effort, PNG palettes (imgproxy's `AVIF_SPEED`, `WEBP_EFFORT`, `WEBP_PRESET`,
    /// `JXL_EFFORT`, `PNG_QUANTIZE`).
    var encoders = Self.baseline
    /// imgproxy's `IMGPROXY_PREFERRED_FORMATS` for `auto`: the source's format when listed, else
    /// the first listed that can carry the result's alpha, else the first; nil: Magpie's rule.
    var preferred: [String]?

    var name: String {
        let fq = formatQuality.sorted { $0.key < $1.key }.map { ",\($0.key)\($0.value)" }.joined()
        let speed = Self.settingsName(encoders) + (preferred.map { ",pref:" + $0.joined(separator: ".") } ?? "")
        return
            "\(format),q\(quality)\(fq)\(maxBytes > 0 ? ",mb\(maxBytes)\(fitsAsThumbor ? "th" : "")" : "")\(keepsCopyright ? ",kcr" : "")\(pngToJPEG ? ",p2j" : "")\(speed)"
    }
    var description: String { "OutputSerializer(\(name))" }

    func data(for image: Image, original: [UInt8]?, isProcessed: Bool) throws -> [UInt8] {
        // An animation processed frame by frame arrives encoded (its format chosen with this one).
        if let animation = image.animation { return animation.data }
        let encoding = encoding(for: image, original: original)
        var out: [UInt8]
        // `mb`: a lossy encoding's quality lowered until the body fits (the encoder table says
        // which encodings lose detail); the others are written as they are.
        if maxBytes > 0, fitsAsThumbor, let q = encoding.quality, [.jpeg, .webp].contains(encoding.format) {
            out = try Self.thumborFitting(maxBytes: maxBytes, quality: q) {
                try image.encoded(as: encoding.withQuality($0))
            }
        } else if maxBytes > 0, !fitsAsThumbor, encoding.isLossy, let q = encoding.quality {
            out = try Self.fitting(maxBytes: maxBytes, quality: q) { try image.encoded(as: encoding.withQuality($0)) }
        } else {
            out = try image.encoded(as: encoding)
        }
        if keepsCopyright, let original {
            out = try ImageMetadata.copyingRights(from: original, into: out, width: image.width, height: image.height)
        }
        return out
    }

    func image(from data: [UInt8], options: DecodingOptions) throws -> Image {
        try Image(decoding: data, options: options)
    }

    /// The encoding of `image`, with the server's settings for its kind.
    func encoding(for image: Image, original: [UInt8]?) -> EncodingFormat {
        chosen(for: image, original: original).tuned(encoders)
    }

    private func chosen(for image: Image, original: [UInt8]?) -> EncodingFormat {
        if let named = ImageFormat(fileExtension: format),
            let encoding = EncodingFormat.standard(named, quality: quality(for: named))
        {
            return encoding
        }
        let source = original.map { bytes in bytes.withUnsafeBytes { ImageFormat(sniffing: $0) } } ?? .unknown
        if pngToJPEG, source == .png, !image.hasAlpha { return .jpeg(quality: quality(for: .jpeg)) }
        if let preferred, !preferred.isEmpty {
            let candidates = preferred.compactMap { ImageFormat(fileExtension: $0) }
            let named =
                candidates.contains(source)
                ? source : candidates.first { !image.hasAlpha || Self.carriesAlpha($0) } ?? candidates[0]
            if let e = EncodingFormat.standard(named, quality: quality(for: named)) { return e }
        }
        if source == .jpeg { return .jpeg(quality: quality(for: .jpeg)) }
        if source == .png || source == .gif || image.hasAlpha { return .png() }
        return .jpeg(quality: quality(for: .jpeg))
    }

    func quality(for format: ImageFormat) -> Int { formatQuality[format.fileExtension] ?? quality }

    /// The settings a serializer has unless the server says otherwise: imgproxy's defaults (AVIF
    /// speed 8, WebP effort 4 and its default preset, JPEG XL effort 4, truecolour PNG).
    static let baseline = EncoderSettings(avifSpeed: 8, webpMethod: 4, webpPreset: .default, jxlEffort: 4)

    /// The settings in a variant's name, where they are not the baseline's (so a default server's
    /// names, and cache keys, stay as they were).
    static func settingsName(_ s: EncoderSettings) -> String {
        let b = baseline
        return (s.avifSpeed == b.avifSpeed ? "" : ",avif-speed\(s.avifSpeed)")
            + (s.webpMethod == b.webpMethod ? "" : ",webp-effort\(s.webpMethod)")
            + (s.webpPreset == b.webpPreset ? "" : ",webp-preset:\(s.webpPreset.rawValue)")
            + (s.jxlEffort == b.jxlEffort ? "" : ",jxl-effort\(s.jxlEffort)")
            + (s.pngPaletteColors.map { ",png-colors\($0)" } ?? "")
            + (s.jpegProgressive == b.jpegProgressive ? "" : ",jpeg-progressive")
            + (s.pngCompressionLevel == b.pngCompressionLevel ? "" : ",png-level\(s.pngCompressionLevel)")
    }

    /// Whether `format` keeps an alpha channel (imgproxy's `SupportsAlpha`: all it writes but JPEG
    /// and BMP).
    static func carriesAlpha(_ format: ImageFormat) -> Bool { format != .jpeg && format != .bmp }

    /// imgproxy's `max_bytes`: the body at `quality` if it fits; else at 10 (the floor) if even that
    /// does not fit (the smallest there is); else two guesses between, each where the size line
    /// through the last fitting and the last too large encode meets 95% of the limit (regula
    /// falsi): at most four encodes, and the highest quality tried that fits.
    static func fitting(maxBytes: Int, quality: Int, encode: (Int) throws -> [UInt8]) rethrows -> [UInt8] {
        let first = try encode(quality)
        guard first.count > maxBytes, quality > 10 else { return first }
        var best = try encode(10)
        guard best.count <= maxBytes else { return best }
        var (lo, loSize, hi, hiSize) = (10, best.count, quality, first.count)
        for _ in 0..<2 where hi - lo > 1 {
            let target = Double(maxBytes) * 0.95
            let t = (target - Double(loSize)) / Double(max(1, hiSize - loSize))
            let guess = min(hi - 1, max(lo + 1, lo + Int((Double(hi - lo) * t).rounded(.down))))
            let body = try encode(guess)
            if body.count <= maxBytes {
                (lo, loSize, best) = (guess, body.count, body)
            } else {
                (hi, hiSize) = (guess, body.count)
            }
        }
        return best
    }

    /// thumbor's `reload_to_fit_in_kb` (JPEG and WebP only): the body at `quality` if it fits;
    /// else the quality times 0.75 (Python's `int`) again and again until a body fits, or the
    /// first body where the quality would fall below 10. (thumbor then tries
    /// `max(initial, int(q × 1.1))`, which is the initial quality, too large: its answer is the
    /// last that fitted, and so is this one's, one encode fewer.)
    static func thumborFitting(maxBytes: Int, quality: Int, encode: (Int) throws -> [UInt8]) rethrows -> [UInt8] {
        let first = try encode(quality)
        var (body, q) = (first, quality)
        while body.count > maxBytes {
            q = Int(Double(q) * 0.75)
            if q < 10 { return first }
            body = try encode(q)
        }
        return body
    }
}
