internal import CMagpie

/// Sharpening settings in the core's units (levels 0–255).
struct CoreSharpen: Sendable {
    var sigma: Double
    var amount: Double
    var threshold: Double
    var maxBrighten: Double
    var maxDarken: Double
}

/// Round corners in the core's terms.
struct CoreCorners: Sendable {
    var radius: Double
    /// MAGPIE_CORNER_* bits.
    var corners: UInt32
    var borderWidth: Double
    /// 0xRRGGBBAA.
    var borderColor: UInt32
}

/// Colour controls in the core's terms.
struct CoreColor: Sendable {
    var saturation: Double
    var contrast: Double
    var brightness: Double
    /// 0xRRGGBB.
    var tint: UInt32
    var tintAmount: Double
}

/// The C core's pixel processors over one frame of RGBA8 (`width * 4` bytes a row): the only
/// Swift that calls them. Each returns new pixels or throws ``ImageCodecError/processingFailed(_:)``.
enum CoreEffects {
    /// Runs `body` with C views of `source` (`width × height`) and of a new buffer of
    /// `outWidth × outHeight`, which is returned when `body` returns 0.
    private static func produce(
        _ source: [UInt8], _ width: Int, _ height: Int, _ outWidth: Int, _ outHeight: Int,
        _ body: (UnsafePointer<magpie_pixels>, UnsafePointer<magpie_pixels>) -> Int32
    ) throws(ImageCodecError) -> [UInt8] {
        try CoreEffects.checkSize(outWidth, outHeight)
        var status: Int32 = 0
        let count = outWidth * outHeight * 4
        let out = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            status = source.withUnsafeBufferPointer { src in
                var from = magpie_pixels(
                    pixels: UnsafeMutablePointer(mutating: src.baseAddress), width: UInt32(width),
                    height: UInt32(height), stride: width * 4)
                var to = magpie_pixels(
                    pixels: buffer.baseAddress, width: UInt32(outWidth), height: UInt32(outHeight),
                    stride: outWidth * 4)
                return body(&from, &to)
            }
            initialized = status == 0 ? count : 0
        }
        if status != 0 { throw .processingFailed(CoreBridge.failure(status)) }
        return out
    }

    /// Sizes the core takes: positive, within `UInt32`, at most the core's pixel limit.
    static func checkSize(_ width: Int, _ height: Int) throws(ImageCodecError) {
        guard width > 0, height > 0, width <= Int(UInt32.max), height <= Int(UInt32.max) else {
            throw CorePixels.invalidGeometry
        }
        let (area, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || area > CorePixels.maxOutputPixels { throw CorePixels.tooManyPixels }
    }

    /// The largest blur or sharpen sigma.
    static let maxSigma = Double(MAGPIE_MAX_SIGMA)

    static func blur(_ pixels: [UInt8], _ width: Int, _ height: Int, sigma: Double) throws(ImageCodecError) -> [UInt8] {
        try produce(pixels, width, height, width, height) { magpie_blur($0, $1, sigma) }
    }

    static func sharpen(_ pixels: [UInt8], _ width: Int, _ height: Int, _ s: CoreSharpen) throws(ImageCodecError)
        -> [UInt8]
    {
        var o = magpie_sharpen_options()
        magpie_sharpen_options_init(&o)
        o.sigma = s.sigma
        o.amount = s.amount
        o.threshold = s.threshold
        o.max_brighten = s.maxBrighten
        o.max_darken = s.maxDarken
        return try produce(pixels, width, height, width, height) { magpie_sharpen($0, $1, &o) }
    }

    /// `orientation` 1–8 (EXIF numbering); 5–8 swap width and height.
    static func transform(_ pixels: [UInt8], _ width: Int, _ height: Int, orientation: Int) throws(ImageCodecError)
        -> [UInt8]
    {
        let swap = orientation >= 5
        return try produce(pixels, width, height, swap ? height : width, swap ? width : height) {
            magpie_transform($0, $1, UInt32(clamping: max(0, orientation)))
        }
    }

    /// The orientation of applying `first`, then `then` (EXIF numbering).
    static func compose(_ first: Int, then: Int) -> Int {
        Int(magpie_orientation_compose(UInt32(clamping: max(0, first)), UInt32(clamping: max(0, then))))
    }

    static func roundCorners(_ pixels: [UInt8], _ width: Int, _ height: Int, _ c: CoreCorners) throws(ImageCodecError)
        -> [UInt8]
    {
        var o = magpie_corner_options()
        magpie_corner_options_init(&o)
        o.radius = c.radius
        o.corners = c.corners
        o.border_width = c.borderWidth
        o.border_color = c.borderColor
        var out = pixels
        let status = out.withUnsafeMutableBufferPointer { buffer in
            var p = magpie_pixels(
                pixels: buffer.baseAddress, width: UInt32(width), height: UInt32(height), stride: width * 4)
            return magpie_round_corners(&p, &o)
        }
        if status != 0 { throw .processingFailed(CoreBridge.failure(status)) }
        return out
    }

    static func adjustColor(_ pixels: [UInt8], _ width: Int, _ height: Int, _ c: CoreColor) throws(ImageCodecError)
        -> [UInt8]
    {
        var o = magpie_color_options()
        magpie_color_options_init(&o)
        o.saturation = c.saturation
        o.contrast = c.contrast
        o.brightness = c.brightness
        o.tint = c.tint
        o.tint_amount = c.tintAmount
        return try produce(pixels, width, height, width, height) { magpie_adjust_color($0, $1, &o) }
    }

    /// `pixels` at (`left`, `top`) of a new `outWidth × outHeight` image of `color` (0xRRGGBBAA).
    static func pad(
        _ pixels: [UInt8], _ width: Int, _ height: Int, left: Int, top: Int, outWidth: Int, outHeight: Int,
        color: UInt32
    ) throws(ImageCodecError) -> [UInt8] {
        guard left >= 0, top >= 0, left <= Int(UInt32.max), top <= Int(UInt32.max) else {
            throw CorePixels.invalidGeometry
        }
        return try produce(pixels, width, height, outWidth, outHeight) {
            magpie_pad($0, $1, UInt32(left), UInt32(top), color)
        }
    }

    /// Composited over the opaque `rgb` (0xRRGGBB).
    static func flatten(_ pixels: [UInt8], _ width: Int, _ height: Int, rgb: UInt32) throws(ImageCodecError) -> [UInt8]
    {
        try produce(pixels, width, height, width, height) { magpie_flatten($0, $1, rgb) }
    }

    /// `base` with `overlay` composited over it at (`x`, `y`), its alpha scaled by `opacity`.
    static func composite(
        _ base: [UInt8], _ width: Int, _ height: Int, overlay: [UInt8], _ overlayWidth: Int, _ overlayHeight: Int,
        x: Int, y: Int, opacity: Double
    ) throws(ImageCodecError) -> [UInt8] {
        var out = base
        let status = out.withUnsafeMutableBufferPointer { b in
            overlay.withUnsafeBufferPointer { o in
                var p = magpie_pixels(
                    pixels: b.baseAddress, width: UInt32(width), height: UInt32(height), stride: width * 4)
                var q = magpie_pixels(
                    pixels: UnsafeMutablePointer(mutating: o.baseAddress), width: UInt32(overlayWidth),
                    height: UInt32(overlayHeight), stride: overlayWidth * 4)
                return magpie_composite(&p, &q, Int64(x), Int64(y), opacity)
            }
        }
        if status != 0 { throw .processingFailed(CoreBridge.failure(status)) }
        return out
    }

    /// The origin of the `cropWidth × cropHeight` window that holds the most attention (libvips's
    /// `attention` measures: edges, skin, saturation); the centre when nothing stands out.
    static func attentionOrigin(_ pixels: [UInt8], _ width: Int, _ height: Int, cropWidth: Int, cropHeight: Int)
        throws(ImageCodecError) -> (x: Int, y: Int)
    {
        guard cropWidth > 0, cropHeight > 0, cropWidth <= width, cropHeight <= height, width <= Int(UInt32.max),
            height <= Int(UInt32.max)
        else { throw CorePixels.invalidGeometry }
        var rect = magpie_rect()
        let status = pixels.withUnsafeBufferPointer { src in
            var p = magpie_pixels(
                pixels: UnsafeMutablePointer(mutating: src.baseAddress), width: UInt32(width), height: UInt32(height),
                stride: width * 4)
            return magpie_attention_crop(&p, UInt32(cropWidth), UInt32(cropHeight), &rect)
        }
        if status != 0 { throw .processingFailed(CoreBridge.failure(status)) }
        return (Int(rect.x), Int(rect.y))
    }

    /// The rectangle holding every pixel unlike the background (`color` 0xRRGGBBAA, or the
    /// top-left pixel's when `nil`); the whole image when all of it is background.
    static func trimBounds(
        _ pixels: [UInt8], _ width: Int, _ height: Int, threshold: Int, color: UInt32?, equalHorizontal: Bool,
        equalVertical: Bool
    ) throws(ImageCodecError) -> (x: Int, y: Int, width: Int, height: Int) {
        guard (0...255).contains(threshold), width <= Int(UInt32.max), height <= Int(UInt32.max) else {
            throw CorePixels.invalidGeometry
        }
        var o = magpie_trim_options()
        magpie_trim_options_init(&o)
        o.threshold = UInt32(threshold)
        o.use_color = color == nil ? 0 : 1
        o.color = color ?? 0
        o.equal_horizontal = equalHorizontal ? 1 : 0
        o.equal_vertical = equalVertical ? 1 : 0
        var rect = magpie_rect()
        let status = pixels.withUnsafeBufferPointer { src in
            var p = magpie_pixels(
                pixels: UnsafeMutablePointer(mutating: src.baseAddress), width: UInt32(width), height: UInt32(height),
                stride: width * 4)
            return magpie_find_trim(&p, &o, &rect)
        }
        if status != 0 { throw .processingFailed(CoreBridge.failure(status)) }
        return (Int(rect.x), Int(rect.y), Int(rect.width), Int(rect.height))
    }

    /// Every `size × size` block its mean colour (alpha-weighted).
    static func pixelate(_ pixels: [UInt8], _ width: Int, _ height: Int, size: Int) throws(ImageCodecError) -> [UInt8] {
        guard size > 0 else { throw CorePixels.invalidGeometry }
        return try produce(pixels, width, height, width, height) { magpie_pixelate($0, $1, UInt32(clamping: size)) }
    }
}
