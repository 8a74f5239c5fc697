/// Round corners with anti-aliased edges and an optional border (Kingfisher's
/// `RoundCornerImageProcessor` and `BorderImageProcessor`, Nuke's `RoundedCorners` and `Circle`).
public struct RoundCornerProcessor: ImageProcessor {
    /// How round.
    public enum Radius: Sendable, Hashable {
        /// A radius in pixels.
        case pixels(Double)
        /// A fraction (0–0.5) of the shorter side.
        case fraction(Double)
        /// Cropped to the centred square, then a circle (Nuke's `Circle`).
        case circle
    }

    public var radius: Radius
    public var corners: RectCorners
    public var borderWidth: Double
    public var borderColor: Color

    public init(radius: Radius, corners: RectCorners = .all, borderWidth: Double = 0, borderColor: Color = .black) {
        self.radius = radius
        self.corners = corners
        self.borderWidth = borderWidth
        self.borderColor = borderColor
    }

    /// A circle of the centred square, with an optional border.
    public static func circle(borderWidth: Double = 0, borderColor: Color = .black) -> RoundCornerProcessor {
        RoundCornerProcessor(radius: .circle, borderWidth: borderWidth, borderColor: borderColor)
    }

    public var identifier: String {
        let r: String
        switch radius {
        case .pixels(let p): r = "\(p)"
        case .fraction(let f): r = "\(f)x"
        case .circle: r = "circle"
        }
        let border = borderWidth > 0 ? ",border:\(borderWidth),\(borderColor)" : ""
        let which = corners == .all ? "" : ",corners:\(corners.rawValue)"
        return "magpie.corners(\(r)\(which)\(border))"
    }

    public func process(_ input: ImageProcessingInput, firstFrameOnly: Bool) throws -> Image {
        var image = try input.image(firstFrameOnly: firstFrameOnly) { $0 }
        let pixels: Double
        switch radius {
        case .pixels(let p): pixels = p
        case .fraction(let f):
            guard f >= 0, f <= 0.5 else { throw CorePixels.invalidGeometry }
            pixels = f * Double(min(image.width, image.height))
        case .circle:
            let side = min(image.width, image.height)
            if image.width != image.height {
                image = try image.cropped(
                    to: PixelRect(x: (image.width - side) / 2, y: (image.height - side) / 2, width: side, height: side))
            }
            pixels = Double(side) / 2
        }
        return try image.roundingCorners(
            radius: pixels, corners: radius == .circle ? .all : corners, borderWidth: borderWidth,
            borderColor: borderColor)
    }
}

/// Extends the image with margins of a colour (imgproxy's `pd`).
public struct PaddingProcessor: ImageProcessor {
    public var top: Int
    public var right: Int
    public var bottom: Int
    public var left: Int
    public var color: Color

    public init(top: Int, right: Int, bottom: Int, left: Int, color: Color = .clear) {
        self.top = top
        self.right = right
        self.bottom = bottom
        self.left = left
        self.color = color
    }

    public var identifier: String { "magpie.pad(\(top),\(right),\(bottom),\(left),\(color))" }

    public func process(_ input: ImageProcessingInput, firstFrameOnly: Bool) throws -> Image {
        try input.image(firstFrameOnly: firstFrameOnly) { $0 }.padded(
            top: top, right: right, bottom: bottom, left: left, color: color)
    }
}

/// Flattens alpha onto an opaque colour (imgproxy's `bg`).
public struct BackgroundProcessor: ImageProcessor {
    public var color: Color

    public init(_ color: Color) { self.color = color }

    public var identifier: String { "magpie.background(\(color.description.prefix(6)))" }

    public func process(_ input: ImageProcessingInput, firstFrameOnly: Bool) throws -> Image {
        try input.image(firstFrameOnly: firstFrameOnly) { $0 }.flattened(onto: color)
    }
}

/// Cuts away a uniform border (imgproxy's `trim`): see ``Image/trimmed(threshold:color:equalHorizontal:equalVertical:)``.
/// From bytes it decodes the whole image first (no shrink-on-load: the border is found at full size).
public struct TrimProcessor: ImageProcessor {
    public var threshold: Int
    public var color: Color?
    public var equalHorizontal: Bool
    public var equalVertical: Bool
    /// Apply the EXIF orientation when decoding bytes (on by default).
    public var appliesOrientation = true

    public init(threshold: Int = 10, color: Color? = nil, equalHorizontal: Bool = false, equalVertical: Bool = false) {
        self.threshold = min(255, max(0, threshold))
        self.color = color
        self.equalHorizontal = equalHorizontal
        self.equalVertical = equalVertical
    }

    public var identifier: String {
        "magpie.trim(\(threshold),\(color.map { "\($0)" } ?? "auto")\(equalHorizontal ? ",eh" : "")\(equalVertical ? ",ev" : "")\(appliesOrientation ? "" : ",as-stored"))"
    }

    public func process(_ input: ImageProcessingInput, firstFrameOnly: Bool) throws -> Image {
        let image: Image
        switch input {
        case .data(let data):
            var options = DecodingOptions(appliesOrientation: appliesOrientation)
            if firstFrameOnly { options.frames = .single(0) }
            image = try Image(decoding: data, options: options)
        case .image(let i): image = firstFrameOnly ? i.firstFrame : i
        }
        return try image.trimmed(
            threshold: threshold, color: color, equalHorizontal: equalHorizontal, equalVertical: equalVertical)
    }
}
