import Magpie

/// The option table's rows for imgproxy's effects: `bl|blur:sigma`, `sh|sharpen:sigma`,
/// `pix|pixelate:size`, `rot|rotate:angle`, `fl|flip:horizontal:vertical`, `bri|brightness:-255..255`,
/// `co|contrast:factor`, `sa|saturation:factor`, `pd|padding:top[:right[:bottom[:left]]]` (CSS
/// order and shorthand), `bg|background:R:G:B` or `bg:hexcolor`,
/// `wm|watermark:opacity[:position[:x[:y[:scale]]]]`.
extension EffectOptions {
    static let rows: [URLOption] = [
        URLOption(["bl", "blur"], .effects, part: { o in o.effects.blur.flatMap { $0 > 0 ? "bl\($0)" : nil } }) {
            o, a throws(ServiceError) in
            try OptionArgs.count(a, 1...1)
            o.effects.blur = try OptionArgs.decimal(a[0], 0...100)
        },
        URLOption(["sh", "sharpen"], .effects, part: { o in o.effects.sharpen.flatMap { $0 > 0 ? "sh\($0)" : nil } }) {
            o, a throws(ServiceError) in
            try OptionArgs.count(a, 1...1)
            o.effects.sharpen = try OptionArgs.decimal(a[0], 0...100)
        },
        URLOption(
            ["pix", "pixelate"], .effects, part: { o in o.effects.pixelate > 1 ? "pix\(o.effects.pixelate)" : nil }
        ) { o, a throws(ServiceError) in
            try OptionArgs.count(a, 1...1)
            o.effects.pixelate = max(1, try OptionArgs.int(a[0], 0...10_000))
        },
        URLOption(["rot", "rotate"], .effects, part: { o in o.effects.rotate != 0 ? "rot\(o.effects.rotate)" : nil }) {
            o, a throws(ServiceError) in
            guard a.count == 1, let angle = Int(a[0]), [0, 90, 180, 270].contains(angle) else { throw .badOption }
            o.effects.rotate = angle
        },
        URLOption(
            ["fl", "flip"], .effects,
            part: { o in
                let e = o.effects
                return e.flipHorizontal || e.flipVertical
                    ? "fl\(e.flipHorizontal ? "h" : "")\(e.flipVertical ? "v" : "")" : nil
            }
        ) { o, a throws(ServiceError) in
            // An empty argument leaves that flip as it was (imgproxy's `fl::1`).
            try OptionArgs.count(a, 1...2)
            if !a[0].isEmpty { o.effects.flipHorizontal = try OptionArgs.bool(a[0]) }
            if a.count > 1, !a[1].isEmpty { o.effects.flipVertical = try OptionArgs.bool(a[1]) }
        },
        // The colour, named once here for `bri`, `co` and `sa`.
        URLOption(
            ["bri", "brightness"], .effects,
            part: { o in
                let e = o.effects
                return e.brightness != 0 || e.contrast != 1 || e.saturation != 1
                    ? "col\(e.saturation):\(e.contrast):\(e.brightness)" : nil
            }
        ) { o, a throws(ServiceError) in
            try OptionArgs.count(a, 1...1)
            o.effects.brightness = try OptionArgs.integer(a[0], -255...255)
        },
        URLOption(["co", "contrast"], .effects) { o, a throws(ServiceError) in
            try OptionArgs.count(a, 1...1)
            o.effects.contrast = try OptionArgs.decimal(a[0], 0...10)
        },
        URLOption(["sa", "saturation"], .effects) { o, a throws(ServiceError) in
            try OptionArgs.count(a, 1...1)
            o.effects.saturation = try OptionArgs.decimal(a[0], 0...10)
        },
        URLOption(
            ["pd", "padding"], .effects,
            part: { o in
                o.effects.padding.flatMap { p in
                    p.contains { $0 > 0 } ? "pd\(p.map(String.init).joined(separator: ":"))" : nil
                }
            }
        ) { o, a throws(ServiceError) in try o.effects.padding(a) },
        URLOption(["bg", "background"], .effects, part: { o in o.effects.background.map { "bg\($0)" } }) {
            o, a throws(ServiceError) in try o.effects.background(a)
        },
        URLOption(
            ["wm", "watermark"], .effects,
            part: { o in
                o.effects.watermark.map { w in "wm\(w.opacity):\(w.gravity.rawValue):\(w.x):\(w.y):\(w.scale)" }
            }
        ) { o, a throws(ServiceError) in try o.effects.watermark(a) },
    ]

    /// CSS: one value for all sides, two for vertical and horizontal, three for top, sides, bottom.
    private mutating func padding(_ args: [String]) throws(ServiceError) {
        try OptionArgs.count(args, 1...4)
        var v: [Int] = []
        for a in args { v.append(a.isEmpty ? 0 : try OptionArgs.integer(a, 0...65_535)) }
        switch v.count {
        case 1: padding = [v[0], v[0], v[0], v[0]]
        case 2: padding = [v[0], v[1], v[0], v[1]]
        case 3: padding = [v[0], v[1], v[2], v[1]]
        default: padding = v
        }
    }

    private mutating func background(_ args: [String]) throws(ServiceError) {
        if args.count == 3 {
            background = Color(
                red: UInt8(try OptionArgs.integer(args[0], 0...255)),
                green: UInt8(try OptionArgs.integer(args[1], 0...255)),
                blue: UInt8(try OptionArgs.integer(args[2], 0...255)))
        } else if args.count == 1, args[0].isEmpty {
            background = nil  // `bg:`: no background, after an earlier one
        } else if args.count == 1, args[0].utf8.count == 3 || args[0].utf8.count == 6,
            let c = Color(hex: args[0].count == 3 ? args[0].map { "\($0)\($0)" }.joined() : args[0])
        {
            background = c  // RRGGBB, or RGB as CSS shortens it (imgproxy's `bg:fff`)
        } else {
            throw .badOption
        }
    }

    private mutating func watermark(_ args: [String]) throws(ServiceError) {
        try OptionArgs.count(args, 1...5)
        var w = Watermark(opacity: try OptionArgs.decimal(args[0], 0...1))
        if args.count > 1, !args[1].isEmpty {
            guard let g = ProcessingOptions.Gravity(rawValue: args[1]) else { throw .badOption }
            w.gravity = g
        }
        if args.count > 2, !args[2].isEmpty { w.x = try OptionArgs.integer(args[2], -65_535...65_535) }
        if args.count > 3, !args[3].isEmpty { w.y = try OptionArgs.integer(args[3], -65_535...65_535) }
        if args.count > 4, !args[4].isEmpty { w.scale = try OptionArgs.decimal(args[4], 0...1) }
        watermark = w.opacity > 0 ? w : nil
    }
}
