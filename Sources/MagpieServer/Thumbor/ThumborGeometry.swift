#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// thumbor's geometry: the crops, resizes and flips its handler and `Transformer` ask of an
/// engine for a source of a size, with thumbor's arithmetic (Python's `round`, which rounds
/// half to even; `round(x, 2)` of the exact binary value; `//`; `int()` truncating), so that a
/// thumbor URL gives thumbor's sizes to the pixel. In order: `MAX_WIDTH`/`MAX_HEIGHT` bound the
/// request, the source is normalized to them (`engine.normalize`) and a manual crop translated
/// (`normalize_crops`), then the manual crop, the target size, the focal point of `halign` and
/// `valign`, and `fit-in` (its `adaptive` and `full` forms) or the crop to the target's aspect
/// (unless `stretch`) and the resize, then the flips. Tested against thumbor itself
/// (`Tests/fixtures/thumbor/geometry.json`).
struct ThumborGeometry: Sendable, Hashable {
    enum Step: Sendable, Hashable {
        /// Left, top, right, bottom of the image as it is at this step.
        case crop(Int, Int, Int, Int)
        case resize(Int, Int)
        case flipHorizontally
        case flipVertically
    }

    /// thumbor raises where this fails (a 500 there): `orig` against an unset side, or a
    /// target side that rounds to 0 under `fit-in`.
    struct Unanswerable: Error, Equatable {}

    /// A length of the request: a number (0: not given) or `orig`.
    var width: Int? = 0
    var height: Int? = 0
    var crop: (left: Int, top: Int, right: Int, bottom: Int)?
    var fitIn = false
    var adaptive = false
    var full = false
    var stretch = false
    var halign = "center"
    var valign = "middle"
    var flipHorizontally = false
    var flipVertically = false
    /// `MAX_WIDTH` and `MAX_HEIGHT` (0: none).
    var maxWidth = 0
    var maxHeight = 0

    static func == (a: Self, b: Self) -> Bool { a.key == b.key }
    func hash(into h: inout Hasher) { h.combine(key) }

    /// Every field, as the variant's name carries it.
    var key: String {
        let c = crop.map { "\($0.left)x\($0.top):\($0.right)x\($0.bottom)" } ?? "-"
        let w = width.map(String.init) ?? "orig"
        let h = height.map(String.init) ?? "orig"
        return "th:\(c):\(fitIn ? (adaptive ? "a" : "") + (full ? "f" : "") + "fit" : stretch ? "stretch" : "crop"):"
            + "\(flipHorizontally ? "-" : "")\(w)x\(flipVertically ? "-" : "")\(h):\(halign):\(valign):\(maxWidth)x\(maxHeight)"
    }

    /// Whether it changes nothing whatever the source (no crop, no size, no flip, no maximum).
    var isIdentity: Bool {
        crop == nil && width == 0 && height == 0 && !flipHorizontally && !flipVertically && maxWidth == 0
            && maxHeight == 0
    }

    /// The steps for a source of `sourceWidth`×`sourceHeight`.
    func steps(sourceWidth: Int, sourceHeight: Int) throws(Unanswerable) -> [Step] {
        try plan(sourceWidth: sourceWidth, sourceHeight: sourceHeight).steps
    }

    /// The steps, the request's sides as the transformer leaves `context.request` for the
    /// filters after it (0: not given, nil: `orig`: `fill`'s box), and the alignment's focal
    /// point (`meta`'s `focal_points`).
    func plan(sourceWidth: Int, sourceHeight: Int) throws(Unanswerable) -> Plan {
        var plan = Planner(self, size: (Double(sourceWidth), Double(sourceHeight)))
        try plan.run()
        return Plan(steps: plan.steps, width: plan.width, height: plan.height, focus: plan.focus)
    }

    /// What ``plan(sourceWidth:sourceHeight:)`` gives.
    struct Plan {
        var steps: [Step]
        var width: Int?
        var height: Int?
        var focus: (x: Double, y: Double)
    }

    /// Python's `round(x)` (and `round(x, 0)`): to the nearest, half to even.
    static func pyRound(_ x: Double) -> Double { x.rounded(.toNearestOrEven) }

    /// Python's `round(x, 2)`, compared as its decimal text: both round the exact binary value,
    /// ties to even, as glibc's `%.2f` does.
    static func pyRound2(_ x: Double) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 512) { buffer in
            let n = withVaList([x]) { vsnprintf(buffer.baseAddress, 512, "%.2f", $0) }
            return String(
                decoding: UnsafeRawBufferPointer(start: buffer.baseAddress, count: max(0, min(Int(n), 511))),
                as: UTF8.self)
        }
    }
}
