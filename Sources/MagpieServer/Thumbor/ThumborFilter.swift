import Magpie

/// thumbor's filters (`filters:name(args):name(args)`), read as thumbor's `FiltersFactory` reads
/// them: the text is split at each `):`, a filter whose name is unknown or not allowed
/// (`FILTERS`) is skipped, and one whose arguments do not match its parameters' patterns (from
/// the start, as Python's `re.match`; each argument trimmed, optional ones left out) is skipped
/// too. Each filter is a row of ``rows`` (`ThumborFilter+Rows.swift`): its name, its parameters,
/// and what it does to the request.
struct ThumborFilter: Sendable {
    /// A parameter's pattern and kind, as thumbor's `BaseFilter` declares them.
    enum Parameter: Sendable {
        /// thumbor's pattern for it.
        var regex: String {
            switch self {
            case .positiveNumber: "[\\d]+"
            case .positiveNonZeroNumber: "[\\d]*[1-9][\\d]*"
            case .number: "[-]?[\\d]+"
            case .decimal: "[-]?(?:(?:[\\d]+\\.?[\\d]*)|(?:[\\d]*\\.?[\\d]+))"
            case .boolean: "[Tt]rue|[Ff]alse|1|0"
            case .string: "(?:'.+?')|(?:[^,]+?)"
            case .word: "[\\w]+"
            case .pattern(let regex): regex
            }
        }
        /// `[\d]+`
        case positiveNumber
        /// `[\d]*[1-9][\d]*`
        case positiveNonZeroNumber
        /// `[-]?[\d]+`
        case number
        /// `[-]?(?:(?:[\d]+\.?[\d]*)|(?:[\d]*\.?[\d]+))`
        case decimal
        /// `[Tt]rue|[Ff]alse|1|0`
        case boolean
        /// `(?:'.+?')|(?:[^,]+?)`, its quotes taken off.
        case string
        /// `[\w]+`
        case word
        /// A filter's own pattern (`round_corner`'s radius, `curve`'s points), read as text.
        case pattern(String)
    }

    /// An argument as read.
    enum Argument: Sendable, Equatable {
        case int(Int)
        case double(Double)
        case bool(Bool)
        case text(String)

        var int: Int? { if case .int(let n) = self { n } else { nil } }
        var double: Double? {
            switch self {
            case .double(let x): x
            case .int(let n): Double(n)
            default: nil
            }
        }
        var text: String? { if case .text(let s) = self { s } else { nil } }
    }

    let name: String
    let parameters: [Parameter]
    /// How many of the parameters may be left out, from the end (those with defaults).
    var optional = 0
    /// What the filter does, given its arguments (nil where a default stands).
    let apply: @Sendable (inout ThumborRequest, [Argument]) -> Void

    /// The names of thumbor 7.8's built-in filters (`BUILTIN_FILTERS`): its default `FILTERS`.
    static let builtIn: Set<String> = [
        "brightness", "colorize", "contrast", "rgb", "round_corner", "quality", "noise", "watermark", "equalize",
        "fill", "sharpen", "strip_exif", "strip_icc", "frame", "grayscale", "rotate", "format", "max_bytes",
        "convolution", "blur", "extract_focal", "focal", "no_upscale", "saturation", "max_age", "curve",
        "background_color", "upscale", "proportion", "stretch",
    ]

    static let byName: [String: ThumborFilter] = Dictionary(rows.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })

    /// Applies the filters of `text` (the URL's, after `filters:`) that `allowed` lists, in order.
    static func apply(_ text: String, allowed: Set<String>, to request: inout ThumborRequest) {
        guard !text.isEmpty else { return }
        let parts = text.split(separator: "):", omittingEmptySubsequences: false)
        for (i, part) in parts.enumerated() {
            let name = String(part.prefix { $0 != "(" })
            guard allowed.contains(name), let filter = byName[name] else { continue }
            let call = i == parts.count - 1 ? Substring(part) : part + ")"
            guard let arguments = filter.arguments(call) else { continue }
            filter.apply(&request, arguments)
        }
    }

    /// The regular expression thumbor compiles for the filter (`BaseFilter.compile_regex`):
    /// `name\\((?:\\s*(p1)\\s*)(?:,\\s*(p2)\\s*)?\\)`, the optional parameters' groups marked `?`.
    var pattern: String {
        var out = name + "\\("
        for (i, p) in parameters.enumerated() {
            out += "(?:" + (i > 0 ? "," : "") + "\\s*(" + p.regex + ")\\s*)"
            if i >= parameters.count - optional { out += "?" }
        }
        return out + "\\)"
    }

    /// The arguments of `call` (`name(…)…`) by the filter's pattern, or nil where it does not
    /// match. Matched from the start as Python's `re.match`: text after the match is not looked
    /// at. A group that matched nothing is left out (its default stands), as thumbor drops it.
    func arguments(_ call: Substring) -> [Argument]? {
        guard let regex = try? Regex(pattern), let match = try? regex.prefixMatch(in: call) else { return nil }
        var out: [Argument] = []
        for (i, p) in parameters.enumerated() {
            guard let group = match.output[i + 1].substring, !group.isEmpty else { continue }
            guard let a = Self.parse(String(group), p) else { return nil }
            out.append(a)
        }
        return out
    }

    static func parse(_ raw: String, _ p: Parameter) -> Argument? {
        switch p {
        case .positiveNumber, .positiveNonZeroNumber, .number: return Int(raw).map(Argument.int)
        // Python's float() reads ".5", "5." and "-.5"; Swift's Double does too, but not "-" alone.
        case .decimal: return Double(raw).map(Argument.double)
        case .boolean: return .bool(["true", "True", "1"].contains(raw))
        case .string:
            if raw.count >= 3, raw.hasPrefix("'"), raw.hasSuffix("'") {
                return .text(String(raw.dropFirst().dropLast()))
            }
            return .text(raw)
        case .word, .pattern: return .text(raw)
        }
    }
}
