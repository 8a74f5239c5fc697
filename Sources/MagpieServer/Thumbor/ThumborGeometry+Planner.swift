/// thumbor's handler and `Transformer` run over a size instead of an image: each crop and
/// resize is recorded and changes the size as an engine's would (`int()` of each argument).
extension ThumborGeometry {
    struct Planner {
        let g: ThumborGeometry
        var size: (w: Double, h: Double)
        var steps: [Step] = []
        /// The request's sides after the maximum (nil: `orig`).
        var width: Int?
        var height: Int?
        var crop: (left: Double, top: Double, right: Double, bottom: Double)
        var shouldCrop: Bool
        var target = (w: 0.0, h: 0.0)
        /// The alignment's focal point in the image after the manual crop (`adjust_focal_points`).
        var focus = (x: 0.0, y: 0.0)

        init(_ g: ThumborGeometry, size: (Double, Double)) {
            self.g = g
            self.size = size
            (width, height) = (g.width, g.height)
            let c = g.crop ?? (0, 0, 0, 0)
            crop = (Double(c.left), Double(c.top), Double(c.right), Double(c.bottom))
            shouldCrop = c.left > 0 || c.top > 0 || c.right > 0 || c.bottom > 0
        }

        mutating func record(_ step: Step) {
            steps.append(step)
            switch step {
            case .crop(let l, let t, let r, let b): size = (Double(r - l), Double(b - t))
            case .resize(let w, let h): size = (Double(w), Double(h))
            case .flipHorizontally, .flipVertically: break
            }
        }

        /// Python's `/`, which raises on a zero divisor (a side normalized to 0 pixels, say).
        /// Python's `int(x)` for a side or an offset: past 2^40 (a request of absurd size, which
        /// thumbor's engine would fail on too) or not finite, unanswerable rather than a trap.
        static func whole(_ x: Double) throws(Unanswerable) -> Int {
            guard x.isFinite, abs(x) < 0x1p40 else { throw Unanswerable() }
            return Int(x)
        }

        static func div(_ a: Double, _ b: Double) throws(Unanswerable) -> Double {
            guard b != 0 else { throw Unanswerable() }
            return a / b
        }

        func proportionalWidth(_ newHeight: Double) throws(Unanswerable) -> Double {
            pyRound(try Self.div(newHeight * size.w, size.h))
        }
        func proportionalHeight(_ newWidth: Double) throws(Unanswerable) -> Double {
            pyRound(try Self.div(newWidth * size.h, size.w))
        }

        mutating func run() throws(Unanswerable) {
            // The handler: the request bounded by the maximum, the source normalized to it.
            if g.maxWidth > 0, let w = width, w > g.maxWidth { width = g.maxWidth }
            if g.maxHeight > 0, let h = height, h > g.maxHeight { height = g.maxHeight }
            let original = size
            let normalized = try normalize()
            if normalized && shouldCrop { try translateCrop(from: original) }
            // The Transformer's image operations.
            try manualCrop()
            try targetDimensions()
            focus = (x: size.w * Self.percentage(g.halign), y: size.h * Self.percentage(g.valign))
            if g.fitIn {
                try fitInResize()
            } else {
                if !g.stretch { try autoCrop(focus: focus) }
                if !(target.w == size.w && target.h == size.h) {
                    record(
                        .resize(
                            try Self.whole(target.w == 0 ? 1 : target.w), try Self.whole(target.h == 0 ? 1 : target.h)))
                }
            }
            if g.flipHorizontally { record(.flipHorizontally) }
            if g.flipVertically { record(.flipVertically) }
        }

        static func percentage(_ align: String) -> Double {
            switch align {
            case "left", "top": 0
            case "right", "bottom": 1
            default: 0.5
            }
        }

        /// `engine.normalize`: a side over the maximum (0 counts as a maximum here, as in
        /// thumbor) scales the source down to it, on the side that exceeds it more.
        mutating func normalize() throws(Unanswerable) -> Bool {
            let (mw, mh) = (Double(g.maxWidth), Double(g.maxHeight))
            guard size.w > mw || size.h > mh else { return false }
            let (wd, hd) = (size.w - mw, size.h - mh)
            if g.maxWidth > 0 && wd > hd {
                record(.resize(g.maxWidth, try Self.whole(try proportionalHeight(mw))))
                return true
            }
            if g.maxHeight > 0 && hd > wd {
                record(.resize(try Self.whole(try proportionalWidth(mh)), g.maxHeight))
                return true
            }
            return false
        }

        /// `normalize_crops`: the manual crop's coordinates moved onto the normalized source.
        mutating func translateCrop(from original: (w: Double, h: Double)) throws(Unanswerable) {
            var (aw, ah) = size
            if width == 0 && height == 0 {
                (aw, ah) = size
            } else if width != 0 {
                ah = try proportionalHeight(size.w)
            } else {
                aw = try proportionalWidth(size.h)
            }
            guard !(original.w == aw && original.h == ah) else { return }
            func floorDiv(_ a: Double, _ b: Double) -> Double { (a / b).rounded(.down) }
            crop = (
                floorDiv(crop.left * aw, original.w), floorDiv(crop.top * ah, original.h),
                floorDiv(crop.right * aw, original.w), floorDiv(crop.bottom * ah, original.h)
            )
        }

        mutating func manualCrop() throws(Unanswerable) {
            guard shouldCrop else { return }
            func limit(_ v: Double, _ m: Double) -> Double { min(max(v, 0), m) }
            crop = (
                limit(crop.left, size.w), limit(crop.top, size.h), limit(crop.right, size.w), limit(crop.bottom, size.h)
            )
            guard crop.left < crop.right, crop.top < crop.bottom else {
                shouldCrop = false
                return
            }
            record(
                .crop(
                    try Self.whole(crop.left), try Self.whole(crop.top), try Self.whole(crop.right),
                    try Self.whole(crop.bottom)))
        }

        /// `_calculate_target_dimensions`: a side not given follows the other's proportion
        /// (`orig` against an unset side raises in thumbor).
        mutating func targetDimensions() throws(Unanswerable) {
            if width == 0 && height == 0 {
                target = size
                return
            }
            if width != 0 {
                target.w = width.map(Double.init) ?? size.w
            } else {
                guard let h = height else { throw Unanswerable() }
                target.w = try proportionalWidth(Double(h))
            }
            if height != 0 {
                target.h = height.map(Double.init) ?? size.h
            } else {
                guard let w = width else { throw Unanswerable() }
                target.h = try proportionalHeight(Double(w))
            }
        }

        /// `auto_crop`: the source cut to the target's aspect ratio (to two decimals) around
        /// the focal point, kept inside the source.
        mutating func autoCrop(focus: (x: Double, y: Double)) throws(Unanswerable) {
            let (sw, sh) = size
            let th = target.h == 0 ? 1 : target.h
            let tw = target.w == 0 ? 1 : target.w
            guard pyRound2(try Self.div(sw, sh)) != pyRound2(tw / th) else { return }
            // The centre of mass of one point of weight 1 (`//` of floats).
            let (fx, fy) = (focus.x.rounded(.down), focus.y.rounded(.down))
            let cw: Double
            let ch: Double
            if try Self.div(target.w, sw) > target.h / sh {
                cw = sw
                ch = Double(try Self.whole(pyRound(sw * target.h / tw)))
            } else {
                cw = Double(try Self.whole(pyRound((target.w * sh / th).rounded(.up))))
                ch = sh
            }
            let left = Double(try Self.whole(pyRound(min(max(fx - cw / 2, 0), sw - cw))))
            let top = Double(try Self.whole(pyRound(min(max(fy - ch / 2, 0), sh - ch))))
            record(
                .crop(
                    try Self.whole(left), try Self.whole(top), try Self.whole(min(left + cw, sw)),
                    try Self.whole(min(top + ch, sh))))
        }

        /// `fit_in_resize`: the source fitted into the box (`full`: covering it), sides swapped
        /// first when `adaptive` and the orientations differ; never enlarged unless `full`.
        mutating func fitInResize() throws(Unanswerable) {
            let (sw, sh) = size
            if g.adaptive && ((sw < sh && target.w > target.h) || (sw > sh && target.w < target.h)) {
                target = (target.h, target.w)
                (width, height) = (height, width)
            }
            let sign = g.full ? -1.0 : 1.0
            if sign == 1 && target.w >= sw && target.h >= sh { return }
            let w: Double
            let h: Double
            if try Self.div(sw, target.w) * sign >= (try Self.div(sh, target.h)) * sign {
                h = pyRound(try Self.div(sh * target.w, sw) + 1e-5)
                w = target.w
            } else {
                h = target.h
                w = pyRound(try Self.div(sw * target.h, sh) + 1e-5)
            }
            record(.resize(try Self.whole(w), try Self.whole(h)))
            // "ensure that filter should work on the real image size": the request's sides as
            // the larger of each asked (`orig`: the source's) and the resize.
            width = try Self.whole(max(width.map(Double.init) ?? sw, w))
            height = try Self.whole(max(height.map(Double.init) ?? sh, h))
        }
    }
}
