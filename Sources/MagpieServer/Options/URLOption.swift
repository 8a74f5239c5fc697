/// The option table: every imgproxy processing option the service reads, one row each, with its
/// names (short first, then long), the stage of imgproxy's pipeline it belongs to, and the function
/// that parses its arguments (bounded, before anything is fetched) into ``ProcessingOptions``, and
/// its part of the variant's name. Adding an option is a row (in `ProcessingOptions+Rows.swift`,
/// `GeometryOptions.swift`, `OutputOptions.swift` or `EffectOptions+Rows.swift`) and its function;
/// the variant's name is the rows' parts in the table's order (``ProcessingOptions/variantName``).
struct URLOption: Sendable {
    /// Where an option acts, in imgproxy's order of operations.
    enum Stage: Int, Sendable, Comparable {
        /// Says something about the request, not the pixels (`exp`, `cb`).
        case request
        /// The resize and its geometry (`rs`, `w`, `h`, `g`, `dpr`, …).
        case resize
        /// After the resize: rotation, flips, colour, blur, sharpen, padding, watermark.
        case effects
        /// How the result is written (`q`, `f`, `scp`).
        case output

        static func < (a: Stage, b: Stage) -> Bool { a.rawValue < b.rawValue }
    }

    typealias Apply = @Sendable (inout ProcessingOptions, [String]) throws(ServiceError) -> Void
    /// The option's part of the variant's name, from the parsed options; `nil` when it changes
    /// nothing (its default) or another row names what it sets (`w` is named by `rs`'s part).
    typealias Part = @Sendable (ProcessingOptions) -> String?

    let names: [String]
    let stage: Stage
    let part: Part?
    let apply: Apply

    init(_ names: [String], _ stage: Stage, part: Part? = nil, _ apply: @escaping Apply) {
        self.names = names
        self.stage = stage
        self.part = part
        self.apply = apply
    }

    /// Every row: the geometry and output options, then the effects.
    static let table: [URLOption] =
        ProcessingOptions.rows + GeometryOptions.rows + OutputOptions.rows + EffectOptions.rows

    /// The rows by every name they answer to.
    static let byName: [String: URLOption] = {
        var map: [String: URLOption] = [:]
        for row in table { for name in row.names { map[name] = row } }
        return map
    }()
}

/// Argument parsers shared by the rows: plain decimals only (no sign but where allowed, no
/// exponent, NaN or infinity), bounded.
enum OptionArgs {
    static func count(_ args: [String], _ allowed: ClosedRange<Int>) throws(ServiceError) {
        guard allowed.contains(args.count) else { throw .badOption }
    }

    /// A non-negative integer of at most 12 digits within `range`.
    static func int(_ s: String, _ range: ClosedRange<Int>) throws(ServiceError) -> Int {
        guard !s.isEmpty, s.utf8.allSatisfy({ (0x30...0x39).contains($0) }), s.utf8.count <= 12, let v = Int(s),
            range.contains(v)
        else { throw .badOption }
        return v
    }

    /// An integer with an optional minus sign, at most 9 digits, within `range`.
    static func integer(_ s: String, _ range: ClosedRange<Int>) throws(ServiceError) -> Int {
        let body = s.hasPrefix("-") ? s.utf8.dropFirst() : s.utf8[...]
        guard !body.isEmpty, body.count <= 9, body.allSatisfy({ (0x30...0x39).contains($0) }), let v = Int(s),
            range.contains(v)
        else { throw .badOption }
        return v
    }

    static func decimal(_ s: String, _ range: ClosedRange<Double>) throws(ServiceError) -> Double {
        let digits = s.utf8.filter { $0 != UInt8(ascii: ".") }
        guard !s.isEmpty, s.utf8.count <= 12, s.utf8.filter({ $0 == UInt8(ascii: ".") }).count <= 1,
            !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }), let v = Double(s), range.contains(v)
        else { throw .badOption }
        return v
    }

    /// The one argument of a switch option (`ar:1`).
    static func bool(_ args: [String]) throws(ServiceError) -> Bool {
        try count(args, 1...1)
        return try bool(args[0])
    }

    static func bool(_ s: String) throws(ServiceError) -> Bool {
        switch s {
        case "1", "t", "true": return true
        case "0", "f", "false": return false
        default: throw .badOption
        }
    }
}
