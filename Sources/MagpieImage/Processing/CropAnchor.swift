/// Where a crop keeps its window. Three kinds:
/// - a fraction of the slack (`CropAnchor(x:y:)`): (0, 0) keeps the top left, (0.5, 0.5) the
///   centre, (1, 1) the bottom right: imgproxy's compass gravities;
/// - a focus point (``focus(x:y:)``): the window is centred on that point of the image (fractions
///   of its size) as far as the image allows: imgproxy's `g:fp`;
/// - ``smart``: the window that holds the most of what draws the eye (edges, skin tones,
///   saturated colour, as libvips's `attention` smart crop judges them): imgproxy's `g:sm`.
///
/// A fraction or a focus point may be shifted (``shifted(x:y:)``) by pixels of the image being
/// cropped, or by a fraction of its size for values between -1 and 1; the window stays inside.
public struct CropAnchor: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case slack, focus, attention
    }

    public var x: Double
    public var y: Double
    let kind: Kind
    /// Displacement right and down: pixels, or a fraction of the image's side when within (-1, 1).
    public private(set) var shiftX: Double = 0
    public private(set) var shiftY: Double = 0

    public init(x: Double, y: Double) {
        self.init(x: x, y: y, kind: .slack)
    }

    init(x: Double, y: Double, kind: Kind) {
        self.x = x.isNaN ? 0.5 : min(1, max(0, x))
        self.y = y.isNaN ? 0.5 : min(1, max(0, y))
        self.kind = kind
    }

    /// The window centred on (`x`, `y`), fractions of the image's width and height.
    public static func focus(x: Double, y: Double) -> CropAnchor { CropAnchor(x: x, y: y, kind: .focus) }

    /// Smart crop: the window with the most attention (see ``CropAnchor``); a featureless image is
    /// cropped at the centre. It looks at the pixels, so the crop runs on the decoded image.
    public static let smart = CropAnchor(x: 0.5, y: 0.5, kind: .attention)

    /// This anchor moved right by `x` and down by `y` (negative: left, up), in pixels of the image
    /// being cropped, or in fractions of its side for values strictly between -1 and 1. A smart
    /// anchor does not move. Non-finite values are ignored.
    public func shifted(x: Double, y: Double) -> CropAnchor {
        guard kind != .attention else { return self }
        var copy = self
        copy.shiftX = x.isFinite ? x : 0
        copy.shiftY = y.isFinite ? y : 0
        return copy
    }

    public static let center = CropAnchor(x: 0.5, y: 0.5)
    public static let top = CropAnchor(x: 0.5, y: 0)
    public static let bottom = CropAnchor(x: 0.5, y: 1)
    public static let left = CropAnchor(x: 0, y: 0.5)
    public static let right = CropAnchor(x: 1, y: 0.5)
    public static let topLeft = CropAnchor(x: 0, y: 0)
    public static let topRight = CropAnchor(x: 1, y: 0)
    public static let bottomLeft = CropAnchor(x: 0, y: 1)
    public static let bottomRight = CropAnchor(x: 1, y: 1)

    /// Whether placing the window needs the pixels (a smart crop), not only the sizes.
    public var needsPixels: Bool { kind == .attention }

    /// How identifiers name it; a plain fraction keeps the name it had before the other kinds.
    var name: String {
        let shift = shiftX != 0 || shiftY != 0 ? ",shift:\(shiftX),\(shiftY)" : ""
        switch kind {
        case .slack: return "\(x),\(y)\(shift)"
        case .focus: return "fp:\(x),\(y)\(shift)"
        case .attention: return "smart"
        }
    }

    /// The top-left corner of a `width × height` window (at most the image's size) of `image`.
    func origin(in image: Image, width: Int, height: Int) throws(ImageCodecError) -> (x: Int, y: Int) {
        if kind == .attention {
            return try CoreEffects.attentionOrigin(
                image.frames[0].pixels, image.width, image.height, cropWidth: width, cropHeight: height)
        }
        return origin(imageWidth: image.width, imageHeight: image.height, width: width, height: height)
    }

    /// The window's origin from the sizes alone (a smart anchor gives the centre here).
    public func origin(imageWidth: Int, imageHeight: Int, width: Int, height: Int) -> (x: Int, y: Int) {
        (
            Self.place(imageWidth, width, kind == .focus ? x : nil, slack: x, shift: shiftX),
            Self.place(imageHeight, height, kind == .focus ? y : nil, slack: y, shift: shiftY)
        )
    }

    private static func place(_ size: Int, _ window: Int, _ focus: Double?, slack: Double, shift: Double) -> Int {
        let room = Double(max(0, size - window))
        var at = focus.map { $0 * Double(size) - Double(window) / 2 } ?? room * slack
        at += abs(shift) < 1 ? shift * Double(size) : shift
        return Int(min(room, max(0, at)).rounded())
    }

    /// This anchor (of an image after `orientation`) as it lies in the image before it: fractions,
    /// focus points and shifts turned and mirrored back.
    public func before(_ orientation: Orientation) -> CropAnchor {
        let inverse = Orientation.allCases.first { orientation.then($0) == .up } ?? .up
        let (x, y, dx, dy) = (self.x, self.y, shiftX, shiftY)
        let m: (Double, Double, Double, Double)
        switch inverse {
        case .up: return self
        case .upMirrored: m = (1 - x, y, -dx, dy)
        case .down: m = (1 - x, 1 - y, -dx, -dy)
        case .downMirrored: m = (x, 1 - y, dx, -dy)
        case .leftMirrored: m = (y, x, dy, dx)
        case .right: m = (1 - y, x, -dy, dx)
        case .rightMirrored: m = (1 - y, 1 - x, -dy, -dx)
        case .left: m = (y, 1 - x, dy, -dx)
        }
        return CropAnchor(x: m.0, y: m.1, kind: kind).shifted(x: m.2, y: m.3)
    }
}
