import MagpieImage

/// What a request asks to be done, from imgproxy's option segments: `rs|resize`, `s|size`,
/// `rt|resizing_type`, `w|width`, `h|height`, `el|enlarge`, `g|gravity`, `q|quality`,
/// `f|format|ext`, `pr|preset`, `exp|expires`, `cb|cachebuster`, `dpr`, `scp|strip_color_profile`,
/// and the effects (``EffectOptions``).
struct ProcessingOptions: Sendable, Hashable {
    enum ResizingType: String, Sendable {
        case fit, fill, force, auto
        case fillDown = "fill-down"
    }

    enum Gravity: String, Sendable, CaseIterable {
        case ce, no, so, ea, we, noea, nowe, soea, sowe
    }

    var resizingType = ResizingType.fit
    var width = 0
    var height = 0
    var enlarge = false
    var gravity = Gravity.ce
    var quality: Int?
    var format: String?
    var expires: Int?
    var cacheBuster: String?
    var dpr = 1
    var effects = EffectOptions()
    /// `scp`/`strip_color_profile`: convert to sRGB and write no profile (true), or keep the
    /// source's profile (false); `nil`: the server's default.
    var stripsColorProfile: Bool?

    /// Parses `segments`, expanding presets once (a preset naming a preset is an error).
    static func parse(_ segments: [String], presets: [String: [String]]) throws(ServiceError) -> ProcessingOptions {
        var options = ProcessingOptions()
        for segment in segments {
            let parts = segment.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            if parts[0] == "pr" || parts[0] == "preset" {
                guard parts.count >= 2 else { throw .badOption }
                for name in parts.dropFirst() {
                    guard let preset = presets[name] else { throw .badOption }
                    for inner in preset {
                        let innerParts = inner.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
                        guard innerParts[0] != "pr", innerParts[0] != "preset" else { throw .badOption }
                        try options.apply(innerParts)
                    }
                }
            } else {
                try options.apply(parts)
            }
        }
        return options
    }

    private mutating func apply(_ parts: [String]) throws(ServiceError) {
        let name = parts[0]
        let args = Array(parts.dropFirst())
        func int(_ s: String, _ range: ClosedRange<Int>) throws(ServiceError) -> Int {
            guard !s.isEmpty, s.utf8.allSatisfy({ (0x30...0x39).contains($0) }), s.utf8.count <= 12, let v = Int(s),
                range.contains(v)
            else { throw .badOption }
            return v
        }
        func bool(_ s: String) throws(ServiceError) -> Bool {
            switch s {
            case "1", "t", "true": return true
            case "0", "f", "false": return false
            default: throw .badOption
            }
        }
        switch name {
        case "rs", "resize", "s", "size":
            let sized = name == "s" || name == "size"
            var a = args[...]
            guard !a.isEmpty, a.count <= (sized ? 3 : 4) else { throw .badOption }
            if !sized {
                guard let type = ResizingType(rawValue: a.removeFirst()) else { throw .badOption }
                resizingType = type
            }
            if let w = a.popFirst(), !w.isEmpty { width = try int(w, 0...1_000_000) }
            if let h = a.popFirst(), !h.isEmpty { height = try int(h, 0...1_000_000) }
            if let e = a.popFirst(), !e.isEmpty { enlarge = try bool(e) }
        case "rt", "resizing_type":
            guard args.count == 1, let type = ResizingType(rawValue: args[0]) else { throw .badOption }
            resizingType = type
        case "w", "width":
            guard args.count == 1 else { throw .badOption }
            width = try int(args[0], 0...1_000_000)
        case "h", "height":
            guard args.count == 1 else { throw .badOption }
            height = try int(args[0], 0...1_000_000)
        case "el", "enlarge":
            guard args.count == 1 else { throw .badOption }
            enlarge = try bool(args[0])
        case "g", "gravity":
            guard args.count == 1, let g = Gravity(rawValue: args[0]) else { throw .badOption }
            gravity = g
        case "q", "quality":
            guard args.count == 1 else { throw .badOption }
            quality = try int(args[0], 1...100)
        case "f", "format", "ext":
            guard args.count == 1, let named = ImageFormat(fileExtension: args[0]), named.isEncodable else {
                throw .badOption
            }
            format = named.fileExtension
        case "exp", "expires":
            guard args.count == 1 else { throw .badOption }
            expires = try int(args[0], 0...Int(Int32.max) * 2)
        case "cb", "cachebuster":
            guard args.count == 1, args[0].utf8.count <= 128 else { throw .badOption }
            cacheBuster = args[0]
        case "scp", "strip_color_profile":
            guard args.count == 1 else { throw .badOption }
            stripsColorProfile = try bool(args[0])
        case "dpr":
            guard args.count == 1 else { throw .badOption }
            dpr = try int(args[0], 1...8)
        default:
            guard try effects.apply(name, args) else { throw .badOption }
        }
    }

    /// The normalised form: what changes the output, in one fixed order (the variant's name in the
    /// cache; `exp` and the signature are not part of it, `cb` is).
    var variantName: String {
        let q = quality.map { ",q\($0)" } ?? ""
        let cb = cacheBuster.map { ",cb\($0)" } ?? ""
        return
            "\(resizingType.rawValue),\(width * dpr)x\(height * dpr)\(enlarge ? ",el" : ""),\(gravity.rawValue)\(q)\(cb)"
            + effects.name
    }
}
