import MagpieImage

/// imgproxy's geometry options beyond the resize itself (their rows are in
/// `GeometryOptions+Rows.swift`): `c` crops the source before the resize, `mw`/`mh` raise the
/// scale to a minimum size, `z` multiplies it, `ex`/`exar` extend the result onto the
/// background.
struct GeometryOptions: Sendable, Hashable {
    struct Crop: Sendable, Hashable {
        /// At least 1: pixels of the source; in (0, 1): a fraction of its side; 0: the whole side.
        var width: Double
        var height: Double
        /// `nil`: the `g` option's gravity.
        var gravity: GravityOption?
    }

    /// `t`: a uniform border cut away before the crop (the source decoded whole for it).
    struct Trim: Sendable, Hashable {
        var threshold: Int
        /// `nil`: the top-left pixel's colour.
        var color: Color?
        var equalHorizontal = false
        var equalVertical = false
    }

    var trim: Trim?
    var crop: Crop?
    var minWidth = 0
    var minHeight = 0
    var zoomX = 1.0
    var zoomY = 1.0
    /// `ex`: the result padded out to the requested size, at this gravity (`nil`: off).
    var extend: GravityOption?
    /// `exar`: the result padded out to the requested aspect ratio, at this gravity.
    var extendAspectRatio: GravityOption?

    /// Whether the resize needs the general plan (scales per axis, a crop first, a minimum).
    var changesScale: Bool { trim != nil || crop != nil || minWidth > 0 || minHeight > 0 || zoomX != 1 || zoomY != 1 }
}

extension GeometryOptions {
    static let rows: [URLOption] = [
        URLOption(
            ["t", "trim"], .resize,
            part: { o in
                o.geometry.trim.map { t in
                    "t\(t.threshold):\(t.color.map { "\($0)" } ?? ""):\(t.equalHorizontal ? 1 : 0):\(t.equalVertical ? 1 : 0)"
                }
            }
        ) { o, a throws(ServiceError) in
            try OptionArgs.count(a, 1...4)
            var t = Trim(threshold: Int(try OptionArgs.decimal(a[0], 0...255).rounded()))
            if a.count > 1, !a[1].isEmpty {
                guard a[1].utf8.count == 6, let c = Color(hex: a[1]) else { throw .badOption }
                t.color = c
            }
            if a.count > 2, !a[2].isEmpty { t.equalHorizontal = try OptionArgs.bool(a[2]) }
            if a.count > 3, !a[3].isEmpty { t.equalVertical = try OptionArgs.bool(a[3]) }
            o.geometry.trim = t
        },
        URLOption(
            ["c", "crop"], .resize,
            part: { o in
                o.geometry.crop.map { c in "c\(c.width):\(c.height)" + (c.gravity.map { ":" + $0.name } ?? "") }
            }
        ) { o, a throws(ServiceError) in
            guard a.count >= 2 else { throw .badOption }
            let w = try OptionArgs.decimal(a[0], 0...100_000)
            let h = try OptionArgs.decimal(a[1], 0...100_000)
            guard w == 0 || w < 1 || w == w.rounded(), h == 0 || h < 1 || h == h.rounded() else { throw .badOption }
            let gravity = a.count > 2 ? try GravityOption.parse(a[2...]) : nil
            o.geometry.crop = w == 0 && h == 0 && gravity == nil ? nil : Crop(width: w, height: h, gravity: gravity)
        },
        // The minimum, named once here for `mw` and `mh`.
        URLOption(
            ["mw", "min-width"], .resize,
            part: { o in
                o.geometry.minWidth > 0 || o.geometry.minHeight > 0
                    ? "min\(o.geometry.minWidth)x\(o.geometry.minHeight)" : nil
            }
        ) { o, a throws(ServiceError) in
            try OptionArgs.count(a, 1...1)
            o.geometry.minWidth = try OptionArgs.int(a[0], 0...1_000_000)
        },
        URLOption(["mh", "min-height"], .resize) { o, a throws(ServiceError) in
            try OptionArgs.count(a, 1...1)
            o.geometry.minHeight = try OptionArgs.int(a[0], 0...1_000_000)
        },
        URLOption(
            ["z", "zoom"], .resize,
            part: { o in
                o.geometry.zoomX != 1 || o.geometry.zoomY != 1 ? "z\(o.geometry.zoomX):\(o.geometry.zoomY)" : nil
            }
        ) { o, a throws(ServiceError) in
            try OptionArgs.count(a, 1...2)
            let x = try OptionArgs.decimal(a[0], 0...100)
            let y = a.count > 1 ? try OptionArgs.decimal(a[1], 0...100) : x
            guard x > 0, y > 0 else { throw .badOption }
            (o.geometry.zoomX, o.geometry.zoomY) = (x, y)
        },
        URLOption(["ex", "extend"], .effects, part: { o in o.geometry.extend.map { "ex:\($0.name)" } }) {
            o, a throws(ServiceError) in
            o.geometry.extend = try extendArgument(a)
        },
        URLOption(
            ["exar", "extend_ar", "extend_aspect_ratio"], .effects,
            part: { o in o.geometry.extendAspectRatio.map { "exar:\($0.name)" } }
        ) { o, a throws(ServiceError) in
            o.geometry.extendAspectRatio = try extendArgument(a)
        },
    ]

    /// `1[:gravity…]` or `0`: the gravity to extend at (centre by default), or `nil` when off.
    static func extendArgument(_ a: [String]) throws(ServiceError) -> GravityOption? {
        guard !a.isEmpty else { throw .badOption }
        guard try OptionArgs.bool(a[0]) else {
            guard a.count == 1 else { throw .badOption }
            return nil
        }
        return a.count > 1 ? try GravityOption.parse(a[1...], smart: false) : .center
    }
}
