internal import CMagpie

extension CoreEncoding {
    /// The C encode options: the one mapping of an encoding.
    var cOptions: magpie_encode_options {
        var o = magpie_encode_options()
        magpie_encode_options_init(&o)
        switch self {
        case .png(let level, let colors):
            o.format = MAGPIE_FORMAT_PNG
            o.compression_level = Int32(clamping: level)
            o.palette_colors = Int32(clamping: colors)
        case .jpeg(let quality, let fullChroma, let progressive):
            o.format = MAGPIE_FORMAT_JPEG
            o.quality = Int32(clamping: quality)
            o.subsampling = fullChroma ? MAGPIE_SUBSAMPLING_444 : MAGPIE_SUBSAMPLING_420
            o.progressive = progressive ? 1 : 0
        case .webp(let quality, let method, let preset):
            o.format = MAGPIE_FORMAT_WEBP
            o.quality = Int32(clamping: quality)
            o.method = Int32(clamping: method)
            o.webp_preset = magpie_webp_preset(rawValue: UInt32(clamping: preset))
        case .webpLossless(let effort, let method):
            o.format = MAGPIE_FORMAT_WEBP
            o.lossless = 1
            o.quality = Int32(clamping: effort)
            o.method = Int32(clamping: method)
        case .avif(let quality, let speed):
            o.format = MAGPIE_FORMAT_AVIF
            o.quality = Int32(clamping: quality)
            o.speed = Int32(clamping: speed)
        case .jxl(let quality, let effort):
            o.format = MAGPIE_FORMAT_JXL
            o.quality = Int32(clamping: quality)
            o.effort = Int32(clamping: effort)
        case .gif:
            o.format = MAGPIE_FORMAT_GIF
        }
        return o
    }
}

/// Encoding, resampling and sniffing through the C core.
enum CorePixels {
    /// Encodes `pixels` (RGBA8, `width × height`).
    static func encode(
        _ pixels: [UInt8], width: Int, height: Int, as format: CoreEncoding, profile: [UInt8]? = nil
    ) throws(ImageCodecError) -> [UInt8] {
        var o = format.cOptions
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        let status = pixels.withUnsafeBufferPointer { p in
            guard let profile, !profile.isEmpty else {
                return magpie_encode(p.baseAddress, UInt32(width), UInt32(height), width * 4, &o, &out, &size)
            }
            return profile.withUnsafeBufferPointer { icc in
                o.icc_profile = icc.baseAddress
                o.icc_profile_size = icc.count
                return magpie_encode(p.baseAddress, UInt32(width), UInt32(height), width * 4, &o, &out, &size)
            }
        }
        try CoreBridge.checkEncoding(status)
        defer { magpie_free(out) }
        return [UInt8](UnsafeBufferPointer(start: out, count: size))
    }

    /// The most output pixels a resample makes: the C core's default pixel limit.
    static let maxOutputPixels = Int(MAGPIE_DEFAULT_MAX_PIXELS)

    /// The failure for bad resampling geometry.
    static var invalidGeometry: ImageCodecError { .processingFailed(CoreBridge.failure(Int32(MAGPIE_EINVAL.rawValue))) }
    /// The failure for an output over ``maxOutputPixels``.
    static var tooManyPixels: ImageCodecError {
        .processingFailed(CoreBridge.failure(Int32(MAGPIE_ELIMIT_PIXELS.rawValue)))
    }

    /// Resamples the window at (`x`, `y`) of `windowWidth × windowHeight` of one frame
    /// (`sourceWidth × sourceHeight` RGBA8) to `width × height`. The caller has checked the geometry.
    static func resample(
        _ pixels: [UInt8], sourceWidth: Int, sourceHeight: Int,
        window: (x: Int, y: Int, width: Int, height: Int), width: Int, height: Int, filter: CoreFilter,
        linearLight: Bool = false
    ) throws(ImageCodecError) -> [UInt8] {
        var c = magpie_rect(
            x: UInt32(window.x), y: UInt32(window.y), width: UInt32(window.width), height: UInt32(window.height))
        var o = magpie_resize_options()
        magpie_resize_options_init(&o)
        o.filter = filter.cFilter
        o.linear_light = linearLight ? 1 : 0
        var detail = [CChar](repeating: 0, count: 128)
        var status: Int32 = 0
        let out = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
            status = pixels.withUnsafeBufferPointer { src in
                withUnsafePointer(to: &c) { window in
                    detail.withUnsafeMutableBufferPointer { why in
                        o.window = window
                        o.error_detail = why.baseAddress
                        o.error_detail_size = why.count
                        var from = magpie_pixels(
                            pixels: UnsafeMutablePointer(mutating: src.baseAddress), width: UInt32(sourceWidth),
                            height: UInt32(sourceHeight), stride: sourceWidth * 4)
                        var to = magpie_pixels(
                            pixels: buffer.baseAddress, width: UInt32(width), height: UInt32(height), stride: width * 4)
                        return magpie_resample(&from, &to, &o)
                    }
                }
            }
            count = status == 0 ? width * height * 4 : 0
        }
        if status != 0 { throw .processingFailed(CoreBridge.failure(status, detail: CoreBridge.string(detail))) }
        return out
    }

    /// The name of the format of `bytes`, from their first bytes.
    static func sniff(_ bytes: UnsafeRawBufferPointer) -> String {
        CoreBridge.formatName(magpie_sniff(bytes.baseAddress, bytes.count))
    }
}
