import Magpie

/// imgproxy's effect options: `bl|blur:sigma`, `sh|sharpen:sigma`, `rot|rotate:angle`,
/// `fl|flip:horizontal:vertical`, `bri|brightness:-255..255`, `co|contrast:factor`,
/// `sa|saturation:factor`, `pd|padding:top[:right[:bottom[:left]]]` (CSS order and shorthand),
/// `bg|background:R:G:B` or `bg:hexcolor`, `wm|watermark:opacity[:position[:x[:y[:scale]]]]`.
/// Numbers are plain decimals (no exponent, no NaN, no infinity), bounded before anything runs.
struct EffectOptions: Sendable, Hashable {
    var blur: Double?
    var sharpen: Double?
    var rotate = 0
    var flipHorizontal = false
    var flipVertical = false
    var brightness = 0
    var contrast = 1.0
    var saturation = 1.0
    /// Top, right, bottom, left, before `dpr`.
    var padding: [Int]?
    var background: Color?
    var watermark: Watermark?

    struct Watermark: Sendable, Hashable {
        var opacity: Double
        var gravity = ProcessingOptions.Gravity.ce
        var x = 0
        var y = 0
        /// 0: the watermark's own size.
        var scale = 0.0
    }

    /// Parses one effect option; `false` when `name` is not one.
    mutating func apply(_ name: String, _ args: [String]) throws(ServiceError) -> Bool {
        switch name {
        case "bl", "blur":
            guard args.count == 1 else { throw .badOption }
            blur = try Self.decimal(args[0], 0...100)
        case "sh", "sharpen":
            guard args.count == 1 else { throw .badOption }
            sharpen = try Self.decimal(args[0], 0...100)
        case "rot", "rotate":
            guard args.count == 1, let angle = Int(args[0]), [0, 90, 180, 270].contains(angle) else {
                throw .badOption
            }
            rotate = angle
        case "fl", "flip":
            guard (1...2).contains(args.count) else { throw .badOption }
            flipHorizontal = try Self.bool(args[0])
            flipVertical = args.count > 1 ? try Self.bool(args[1]) : false
        case "bri", "brightness":
            guard args.count == 1 else { throw .badOption }
            brightness = try Self.integer(args[0], -255...255)
        case "co", "contrast":
            guard args.count == 1 else { throw .badOption }
            contrast = try Self.decimal(args[0], 0...10)
        case "sa", "saturation":
            guard args.count == 1 else { throw .badOption }
            saturation = try Self.decimal(args[0], 0...10)
        case "pd", "padding":
            guard (1...4).contains(args.count) else { throw .badOption }
            var v: [Int] = []
            for a in args { v.append(a.isEmpty ? 0 : try Self.integer(a, 0...65_535)) }
            // CSS: one value for all, two for vertical and horizontal, three for top, sides, bottom.
            switch v.count {
            case 1: padding = [v[0], v[0], v[0], v[0]]
            case 2: padding = [v[0], v[1], v[0], v[1]]
            case 3: padding = [v[0], v[1], v[2], v[1]]
            default: padding = v
            }
        case "bg", "background":
            if args.count == 3 {
                background = Color(
                    red: UInt8(try Self.integer(args[0], 0...255)), green: UInt8(try Self.integer(args[1], 0...255)),
                    blue: UInt8(try Self.integer(args[2], 0...255)))
            } else if args.count == 1, args[0].utf8.count == 6, let c = Color(hex: args[0]) {
                background = c
            } else {
                throw .badOption
            }
        case "wm", "watermark":
            guard (1...5).contains(args.count) else { throw .badOption }
            var w = Watermark(opacity: try Self.decimal(args[0], 0...1))
            if args.count > 1, !args[1].isEmpty {
                guard let g = ProcessingOptions.Gravity(rawValue: args[1]) else { throw .badOption }
                w.gravity = g
            }
            if args.count > 2, !args[2].isEmpty { w.x = try Self.integer(args[2], -65_535...65_535) }
            if args.count > 3, !args[3].isEmpty { w.y = try Self.integer(args[3], -65_535...65_535) }
            if args.count > 4, !args[4].isEmpty { w.scale = try Self.decimal(args[4], 0...1) }
            watermark = w.opacity > 0 ? w : nil
        default:
            return false
        }
        return true
    }

    /// What changes the output, in a fixed order (part of the variant's name).
    var name: String {
        var parts: [String] = []
        if let blur, blur > 0 { parts.append("bl\(blur)") }
        if let sharpen, sharpen > 0 { parts.append("sh\(sharpen)") }
        if rotate != 0 { parts.append("rot\(rotate)") }
        if flipHorizontal || flipVertical { parts.append("fl\(flipHorizontal ? "h" : "")\(flipVertical ? "v" : "")") }
        if brightness != 0 || contrast != 1 || saturation != 1 {
            parts.append("col\(saturation):\(contrast):\(brightness)")
        }
        if let padding, padding.contains(where: { $0 > 0 }) {
            parts.append("pd\(padding.map(String.init).joined(separator: ":"))")
        }
        if let background { parts.append("bg\(background)") }
        if let w = watermark { parts.append("wm\(w.opacity):\(w.gravity.rawValue):\(w.x):\(w.y):\(w.scale)") }
        return parts.isEmpty ? "" : "," + parts.joined(separator: ",")
    }

    /// The rotation then the flips, as one orientation.
    var orientation: Orientation {
        (Orientation(rotatingClockwise: rotate) ?? .up).then(.flip(horizontal: flipHorizontal, vertical: flipVertical))
    }

    static func decimal(_ s: String, _ range: ClosedRange<Double>) throws(ServiceError) -> Double {
        let digits = s.utf8.filter { $0 != UInt8(ascii: ".") }
        guard !s.isEmpty, s.utf8.count <= 12, s.utf8.filter({ $0 == UInt8(ascii: ".") }).count <= 1,
            !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }), let v = Double(s), range.contains(v)
        else { throw .badOption }
        return v
    }

    static func integer(_ s: String, _ range: ClosedRange<Int>) throws(ServiceError) -> Int {
        let body = s.hasPrefix("-") ? s.utf8.dropFirst() : s.utf8[...]
        guard !body.isEmpty, body.count <= 9, body.allSatisfy({ (0x30...0x39).contains($0) }), let v = Int(s),
            range.contains(v)
        else { throw .badOption }
        return v
    }

    static func bool(_ s: String) throws(ServiceError) -> Bool {
        switch s {
        case "1", "t", "true": return true
        case "0", "f", "false": return false
        default: throw .badOption
        }
    }
}
