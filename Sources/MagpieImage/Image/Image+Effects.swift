/// Unsharp-mask settings (``Image/sharpened(_:)``), levels in 0–255.
public struct Sharpening: Sendable, Hashable {
    /// The Gaussian's sigma, 0 to 100 (below 0.15 nothing changes).
    public var sigma: Double
    /// The gain on detail above the threshold, 0 (nothing) to 100.
    public var amount: Double
    /// Luma differences up to this many levels are left alone (0–255).
    public var threshold: Double
    /// The most a pixel is brightened, and darkened, in levels (0–255).
    public var maxBrighten: Double
    public var maxDarken: Double

    public init(
        sigma: Double = 1, amount: Double = 1, threshold: Double = 0, maxBrighten: Double = 255,
        maxDarken: Double = 255
    ) {
        self.sigma = sigma
        self.amount = amount
        self.threshold = threshold
        self.maxBrighten = maxBrighten
        self.maxDarken = maxDarken
    }

    /// libvips's `vips_sharpen` defaults (sigma 0.5, m2 3, x1 2, y2 10, y3 20 in its L* units),
    /// in these units: the mild sharpening a downscale can take.
    public static let afterResize = Sharpening(sigma: 0.5, amount: 3, threshold: 5, maxBrighten: 25, maxDarken: 51)

    /// How identifiers name it.
    var name: String { "\(sigma),\(amount),\(threshold),\(maxBrighten),\(maxDarken)" }
}

/// Which corners ``Image/roundingCorners(radius:corners:borderWidth:borderColor:)`` rounds.
public struct RectCorners: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue & 0xF }
    public static let topLeft = RectCorners(rawValue: 1)
    public static let topRight = RectCorners(rawValue: 2)
    public static let bottomLeft = RectCorners(rawValue: 4)
    public static let bottomRight = RectCorners(rawValue: 8)
    public static let all: RectCorners = [.topLeft, .topRight, .bottomLeft, .bottomRight]
}

/// Colour controls (``Image/adjustingColor(_:)``), applied in this order: saturation, contrast,
/// brightness, tint. The defaults change nothing.
public struct ColorAdjustment: Sendable, Hashable {
    /// 1 keeps the colour, 0 is Rec. 709 grayscale, up to 10.
    public var saturation: Double
    /// A factor around mid-grey (level 128): 1 keeps it, 0 to 10.
    public var contrast: Double
    /// Levels added, -255 to 255.
    public var brightness: Double
    /// The colour mixed in (its alpha is ignored) and how much of it, 0–1.
    public var tint: Color
    public var tintAmount: Double

    public init(
        saturation: Double = 1, contrast: Double = 1, brightness: Double = 0, tint: Color = .black,
        tintAmount: Double = 0
    ) {
        self.saturation = saturation
        self.contrast = contrast
        self.brightness = brightness
        self.tint = tint
        self.tintAmount = tintAmount
    }

    /// Rec. 709 luma grayscale.
    public static let grayscale = ColorAdjustment(saturation: 0)

    /// Whether it changes nothing.
    public var isIdentity: Bool { saturation == 1 && contrast == 1 && brightness == 0 && tintAmount == 0 }
}

extension Image {
    /// Every frame through `body`, with the size each comes out.
    func mapFrames(
        width: Int, height: Int, _ body: ([UInt8]) throws(ImageCodecError) -> [UInt8]
    ) throws(ImageCodecError) -> Image {
        var out: [ImageFrame] = []
        out.reserveCapacity(frames.count)
        for frame in frames { out.append(ImageFrame(pixels: try body(frame.pixels), delay: frame.delay)) }
        return Image(
            width: width, height: height, frames: out, loopCount: loopCount, sourceFormat: sourceFormat,
            sourceOrientation: sourceOrientation
        ).carryingColor(of: self)
    }

    /// Gaussian blur: `sigma` 0 (unchanged) to 100; transparent pixels lend no colour.
    /// - Throws: ``ImageCodecError/processingFailed(_:)`` (``CoreFailure/Code/invalidArgument``) for a
    ///   sigma out of range or NaN.
    public func blurred(sigma: Double) throws(ImageCodecError) -> Image {
        if sigma == 0 { return self }
        return try mapFrames(width: width, height: height) { (p) throws(ImageCodecError) in
            try CoreEffects.blur(p, width, height, sigma: sigma)
        }
    }

    /// Unsharp mask on luma (see ``Sharpening``).
    /// - Throws: ``ImageCodecError/processingFailed(_:)`` for settings out of range.
    public func sharpened(_ s: Sharpening) throws(ImageCodecError) -> Image {
        let core = CoreSharpen(
            sigma: s.sigma, amount: s.amount, threshold: s.threshold, maxBrighten: s.maxBrighten, maxDarken: s.maxDarken
        )
        return try mapFrames(width: width, height: height) { (p) throws(ImageCodecError) in
            try CoreEffects.sharpen(p, width, height, core)
        }
    }

    /// Rotated or flipped: pixels moved exactly, never resampled.
    public func transformed(_ orientation: Orientation) throws(ImageCodecError) -> Image {
        if orientation == .up { return self }
        let (w, h) = orientation.swapsAxes ? (height, width) : (width, height)
        return try mapFrames(width: w, height: h) { (p) throws(ImageCodecError) in
            try CoreEffects.transform(p, width, height, orientation: orientation.rawValue)
        }
    }

    /// Corners rounded with anti-aliased edges (each edge pixel keeps the exact area inside),
    /// and optionally a border `borderWidth` wide along the outline. A radius of at least half the
    /// shorter side makes a square a circle.
    public func roundingCorners(
        radius: Double, corners: RectCorners = .all, borderWidth: Double = 0, borderColor: Color = .black
    ) throws(ImageCodecError) -> Image {
        let c = CoreCorners(
            radius: radius, corners: corners.rawValue, borderWidth: borderWidth, borderColor: borderColor.rgba)
        return try mapFrames(width: width, height: height) { (p) throws(ImageCodecError) in
            try CoreEffects.roundCorners(p, width, height, c)
        }
    }

    /// Colour controls (see ``ColorAdjustment``); alpha is kept.
    public func adjustingColor(_ a: ColorAdjustment) throws(ImageCodecError) -> Image {
        if a.isIdentity { return self }
        let c = CoreColor(
            saturation: a.saturation, contrast: a.contrast, brightness: a.brightness, tint: a.tint.rgb,
            tintAmount: a.tintAmount)
        return try mapFrames(width: width, height: height) { (p) throws(ImageCodecError) in
            try CoreEffects.adjustColor(p, width, height, c)
        }
    }

    /// Extended by the given margins of `color`.
    public func padded(top: Int, right: Int, bottom: Int, left: Int, color: Color) throws(ImageCodecError) -> Image {
        guard top >= 0, right >= 0, bottom >= 0, left >= 0 else { throw CorePixels.invalidGeometry }
        if top == 0 && right == 0 && bottom == 0 && left == 0 { return self }
        // Each margin is below 2^32 before any sum, so none can overflow.
        let limit = Int(UInt32.max)
        guard left <= limit, right <= limit, top <= limit, bottom <= limit else { throw CorePixels.tooManyPixels }
        let w = width + left + right
        let h = height + top + bottom
        return try mapFrames(width: w, height: h) { (p) throws(ImageCodecError) in
            try CoreEffects.pad(p, width, height, left: left, top: top, outWidth: w, outHeight: h, color: color.rgba)
        }
    }

    /// Alpha flattened onto the opaque `color` (its alpha is ignored).
    public func flattened(onto color: Color) throws(ImageCodecError) -> Image {
        try mapFrames(width: width, height: height) { (p) throws(ImageCodecError) in
            try CoreEffects.flatten(p, width, height, rgb: color.rgb)
        }
    }

    /// `overlay`'s first frame composited over every frame with its top-left corner at (`x`, `y`)
    /// (negative or beyond the image is clipped), its alpha scaled by `opacity` (0–1).
    public func compositing(_ overlay: Image, x: Int, y: Int, opacity: Double = 1) throws(ImageCodecError) -> Image {
        let top = overlay.frames[0].pixels
        return try mapFrames(width: width, height: height) { (p) throws(ImageCodecError) in
            try CoreEffects.composite(
                p, width, height, overlay: top, overlay.width, overlay.height, x: x, y: y, opacity: opacity)
        }
    }
}
