import MagpieImage

/// The option table's rows for the geometry, the request and the output: `rs|resize`, `s|size`,
/// `rt|resizing_type`, `w|width`, `h|height`, `el|enlarge`, `g|gravity`, `dpr`, `exp|expires`,
/// `cb|cachebuster`, `q|quality`, `f|format|ext`, `fn|filename`, `att|return_attachment`,
/// `scp|strip_color_profile`.
extension ProcessingOptions {
    static let rows: [URLOption] = [
        // The box: named once here for `rs`, `s`, `rt`, `w`, `h`, `el` and `dpr`.
        URLOption(
            ["rs", "resize"], .resize,
            part: { o in
                "\(o.resizingType.rawValue),\(o.width)x\(o.height)\(o.enlarge ? ",el" : "")"
                    + (o.dpr != 1 ? ",dpr\(o.dpr)" : "")
            }
        ) { o, a throws(ServiceError) in try o.resize(a, typed: true) },
        URLOption(["s", "size"], .resize) { o, a throws(ServiceError) in try o.resize(a, typed: false) },
        URLOption(["rt", "resizing_type"], .resize) { o, a throws(ServiceError) in
            guard a.count == 1, let type = ResizingType(rawValue: a[0]) else { throw .badOption }
            o.resizingType = type
        },
        URLOption(["w", "width"], .resize) { o, a throws(ServiceError) in
            try OptionArgs.count(a, 1...1)
            o.width = try OptionArgs.int(a[0], 0...1_000_000)
        },
        URLOption(["h", "height"], .resize) { o, a throws(ServiceError) in
            try OptionArgs.count(a, 1...1)
            o.height = try OptionArgs.int(a[0], 0...1_000_000)
        },
        URLOption(["el", "enlarge"], .resize) { o, a throws(ServiceError) in
            try OptionArgs.count(a, 1...1)
            o.enlarge = try OptionArgs.bool(a[0])
        },
        URLOption(["g", "gravity"], .resize, part: { $0.gravity.name }) { o, a throws(ServiceError) in
            o.gravity = try GravityOption.parse(a[...])
        },
        // Any DPR above 0, as imgproxy takes it (the server's largest result bounds the box at it).
        URLOption(["dpr"], .resize) { o, a throws(ServiceError) in
            try OptionArgs.count(a, 1...1)
            o.dpr = try OptionArgs.decimal(a[0], 0...100)
            guard o.dpr > 0 else { throw .badOption }
        },
        URLOption(["q", "quality"], .output, part: { o in o.quality.map { "q\($0)" } }) { o, a throws(ServiceError) in
            try OptionArgs.count(a, 1...1)
            o.quality = try OptionArgs.int(a[0], 1...100)
        },
        URLOption(["exp", "expires"], .request) { o, a throws(ServiceError) in
            try OptionArgs.count(a, 1...1)
            // Seconds since 1970 in 64 bits, as imgproxy reads them (`32503669200` is the year 3000).
            o.expires = try OptionArgs.int(a[0], 0...(1 << 53))
        },
        URLOption(["cb", "cachebuster"], .request, part: { o in o.cacheBuster.map { "cb\($0)" } }) {
            o, a throws(ServiceError) in
            guard a.count == 1, a[0].utf8.count <= 128 else { throw .badOption }
            o.cacheBuster = a[0]
        },
        URLOption(["f", "format", "ext"], .output) { o, a throws(ServiceError) in
            guard a.count == 1, let named = ImageFormat(fileExtension: a[0]), named.isEncodable else {
                throw .badOption
            }
            o.format = named.fileExtension
        },
        URLOption(["fn", "filename"], .output) { o, a throws(ServiceError) in
            try OptionArgs.count(a, 1...2)
            let encoded = a.count > 1 ? try OptionArgs.bool(a[1]) : false
            guard let name = ContentDisposition.filename(a[0], encoded: encoded) else { throw .badOption }
            o.filename = name
        },
        URLOption(["att", "return_attachment"], .output) { o, a throws(ServiceError) in
            try OptionArgs.count(a, 1...1)
            o.attachment = try OptionArgs.bool(a[0])
        },
        URLOption(["scp", "strip_color_profile"], .output) { o, a throws(ServiceError) in
            try OptionArgs.count(a, 1...1)
            o.stripsColorProfile = try OptionArgs.bool(a[0])
        },
    ]

    /// `rs:type:width:height:enlarge:extend[:gravity…]` and `s:width:height:enlarge:extend…`; an
    /// empty argument keeps its value.
    private mutating func resize(_ args: [String], typed: Bool) throws(ServiceError) {
        var a = args[...]
        guard !a.isEmpty else { throw .badOption }
        if typed {
            guard let type = ResizingType(rawValue: a.removeFirst()) else { throw .badOption }
            resizingType = type
        }
        if let w = a.popFirst(), !w.isEmpty { width = try OptionArgs.int(w, 0...1_000_000) }
        if let h = a.popFirst(), !h.isEmpty { height = try OptionArgs.int(h, 0...1_000_000) }
        if let e = a.popFirst(), !e.isEmpty { enlarge = try OptionArgs.bool(e) }
        if let first = a.first, !first.isEmpty { geometry.extend = try GeometryOptions.extendArgument(Array(a)) }
    }
}
