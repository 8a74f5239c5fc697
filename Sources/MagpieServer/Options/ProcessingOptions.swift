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
    var dpr = 1
    var effects = EffectOptions()
    /// `scp`/`strip_color_profile`: convert to sRGB and write no profile (true), or keep the
    /// source's profile (false); `nil`: the server's default.
    var stripsColorProfile: Bool?
    /// `fn|filename`: the name `Content-Disposition` gives the result (the result's extension is
    /// added); `att|return_attachment`: `attachment` rather than `inline`. Neither changes pixels.
    var filename: String?
    var attachment = false

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

    /// One option segment, through its row of the option table.
    private mutating func apply(_ parts: [String]) throws(ServiceError) {
        guard let row = URLOption.byName[parts[0]] else { throw .badOption }
        try row.apply(&self, Array(parts.dropFirst()))
    }

    /// The normalised form: what changes the output, each row's part in the table's order (the
    /// variant's name in the cache; `exp` and the signature are not part of it, `cb` is).
    var variantName: String { URLOption.table.compactMap { $0.part?(self) }.joined(separator: ",") }
}
