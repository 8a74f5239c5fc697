import MagpieImage

/// imgproxy's gravity argument, as `g`, `c`, `ex` and `exar` take it: a compass point with
/// optional offsets (`ea:10:5`; an offset of at least 1 is pixels, below 1 a fraction of the
/// side), `sm` (smart: libvips's attention crop, no offsets) or `fp:X:Y` (a focus point, fractions
/// of the image, the centre of the result).
struct GravityOption: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case compass(ProcessingOptions.Gravity)
        case smart
        case focus(x: Double, y: Double)
    }

    var kind = Kind.compass(.ce)
    var offsetX = 0.0
    var offsetY = 0.0

    static let center = GravityOption()

    /// Parses `args` (the gravity's type then its arguments); `smart: false` refuses `sm` (as
    /// `ex` and `exar` do).
    static func parse(_ args: ArraySlice<String>, smart: Bool = true) throws(ServiceError) -> GravityOption {
        guard let type = args.first else { throw .badOption }
        let rest = Array(args.dropFirst())
        switch type {
        case "sm":
            guard smart, rest.isEmpty else { throw .badOption }
            return GravityOption(kind: .smart)
        case "fp":
            guard rest.count == 2 else { throw .badOption }
            return GravityOption(
                kind: .focus(x: try OptionArgs.decimal(rest[0], 0...1), y: try OptionArgs.decimal(rest[1], 0...1)))
        default:
            guard let compass = ProcessingOptions.Gravity(rawValue: type), rest.count <= 2 else { throw .badOption }
            var g = GravityOption(kind: .compass(compass))
            if rest.count > 0, !rest[0].isEmpty { g.offsetX = try offset(rest[0]) }
            if rest.count > 1, !rest[1].isEmpty { g.offsetY = try offset(rest[1]) }
            return g
        }
    }

    /// A signed decimal offset, at most 100,000 pixels either way.
    private static func offset(_ s: String) throws(ServiceError) -> Double {
        let negative = s.hasPrefix("-")
        let v = try OptionArgs.decimal(negative ? String(s.dropFirst()) : s, 0...100_000)
        return negative ? -v : v
    }

    /// The anchor in the output's frame. Compass offsets point inward from the edge the gravity
    /// names (imgproxy's meaning: `ea:10` keeps the window 10 px from the right edge; from the
    /// centre, right and down); pixel offsets follow `dpr`, fractions do not.
    func anchor(dpr: Double) -> CropAnchor {
        switch kind {
        case .smart: return .smart
        case .focus(let x, let y): return .focus(x: x, y: y)
        case .compass(let g):
            let base = Variant.anchor(g)
            let scale = { (v: Double) in abs(v) >= 1 ? (v * dpr).rounded(.toNearestOrEven) : v }
            let dx = base.x == 1 ? -scale(offsetX) : scale(offsetX)
            let dy = base.y == 1 ? -scale(offsetY) : scale(offsetY)
            return dx == 0 && dy == 0 ? base : base.shifted(x: dx, y: dy)
        }
    }

    /// How the variant's name spells it (`ce` as before offsets existed).
    var name: String {
        switch kind {
        case .smart: return "sm"
        case .focus(let x, let y): return "fp:\(x):\(y)"
        case .compass(let g):
            return offsetX == 0 && offsetY == 0 ? g.rawValue : "\(g.rawValue):\(offsetX):\(offsetY)"
        }
    }
}
