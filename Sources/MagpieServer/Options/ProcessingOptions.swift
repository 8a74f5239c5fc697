/// What a request asks to be done, from imgproxy's option segments, each parsed by its row of the
/// option table (``URLOption``; the rows are in `ProcessingOptions+Rows.swift` and
/// `EffectOptions+Rows.swift`). `pr|preset` expands presets here, before their options' rows.
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
    var gravity = GravityOption.center
    var geometry = GeometryOptions()
    var output = OutputOptions()
    var quality: Int?
    var format: String?
    var expires: Int?
    var cacheBuster: String?
    /// Above 0; how far it applies depends on the source (``ImgproxyGeometry``).
    var dpr = 1.0
    var effects = EffectOptions()
    /// `scp`/`strip_color_profile`: convert to sRGB and write no profile (true), or keep the
    /// source's profile (false); `nil`: the server's default.
    var stripsColorProfile: Bool?
    /// `fn|filename`: the name `Content-Disposition` gives the result (the result's extension is
    /// added); `att|return_attachment`: `attachment` rather than `inline`. Neither changes pixels.
    var filename: String?
    /// `nil`: the server's default (``ServiceConfiguration/returnsAttachment``).
    var attachment: Bool?

    /// Parses `segments`, expanding presets where they are named, a preset within a preset too; a
    /// preset already being expanded is skipped (imgproxy's loop rule), so the work is bounded by
    /// the presets' own size. As imgproxy does, the preset `default` (when there is one) applies
    /// first, then the presets `named` (a presets-only path's), then the URL's options, each of
    /// which must be in `rules.allowedOptions` when that is not empty (presets' own options are
    /// not checked).
    static func parse(
        _ segments: [String], presets: [String: [String]], rules: PathRules = .init(),
        named: [String] = [], hints: ClientFeatures = ClientFeatures()
    ) throws(ServiceError) -> ProcessingOptions {
        var options = ProcessingOptions()
        // Client hints first, as imgproxy's defaults: the width asked is in CSS pixels.
        if let dpr = hints.dpr { options.dpr = dpr }
        if let width = hints.width { options.width = Int((Double(width) / (hints.dpr ?? 1)).rounded()) }
        if presets["default"] != nil { try options.expand(["default"], presets, rules, expanding: []) }
        try options.expand(named, presets, rules, expanding: [])
        for segment in segments {
            if !rules.allowedOptions.isEmpty {
                guard rules.allowedOptions.contains(String(rules.split(segment, maxSplits: 1)[0])) else {
                    throw .forbiddenOption
                }
            }
            try options.apply([segment], presets: presets, rules, expanding: [])
        }
        return options
    }

    private mutating func apply(
        _ segments: [String], presets: [String: [String]], _ rules: PathRules, expanding: Set<String>
    ) throws(ServiceError) {
        for segment in segments {
            let parts = rules.split(segment).map(String.init)
            guard parts[0] == "pr" || parts[0] == "preset" else {
                try apply(parts)
                continue
            }
            guard parts.count >= 2 else { throw .badOption }
            try expand(Array(parts.dropFirst()), presets, rules, expanding: expanding)
        }
    }

    private mutating func expand(
        _ names: [String], _ presets: [String: [String]], _ rules: PathRules, expanding: Set<String>
    ) throws(ServiceError) {
        for name in names {
            guard let preset = presets[name] else { throw .badOption }
            if expanding.contains(name) { continue }
            try apply(preset, presets: presets, rules, expanding: expanding.union([name]))
        }
    }

    /// One option segment, through its row of the option table.
    private mutating func apply(_ parts: [String]) throws(ServiceError) {
        guard let row = URLOption.byName[parts[0]] else { throw .badOption }
        try row.apply(&self, Array(parts.dropFirst()))
    }

    /// The normalised form: what changes the output, each row's part in the table's order (the
    /// variant's name in the cache; `exp` and the signature are not part of it, `cb` is).
    var variantName: String { URLOption.table.compactMap { $0.part?(self) }.joined(separator: ",") }
}
