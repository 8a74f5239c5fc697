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

    /// A non-negative integer of at most 18 digits within `range`.
    static func int(_ s: String, _ range: ClosedRange<Int>) throws(ServiceError) -> Int {
        guard !s.isEmpty, s.utf8.allSatisfy({ (0x30...0x39).contains($0) }), s.utf8.count <= 18, let v = Int(s),
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

    /// A decimal as Go's `strconv.ParseFloat` reads what clients write (`2`, `1.000000`, `3.0`,
    /// `.5`, `5.`, `1e2`, `1.5E-1`): digits with at most one point, an optional exponent; no sign
    /// (offsets take theirs apart), NaN, infinity, hexadecimal or underscores; at most 32
    /// characters, within `range`.
    static func decimal(_ s: String, _ range: ClosedRange<Double>) throws(ServiceError) -> Double {
        let u = Array(s.utf8)
        guard !u.isEmpty, u.count <= 32 else { throw .badOption }
        func isDigit(_ c: UInt8) -> Bool { (0x30...0x39).contains(c) }
        var i = 0
        var digits = 0
        while i < u.count, isDigit(u[i]) { (i, digits) = (i + 1, digits + 1) }
        if i < u.count, u[i] == UInt8(ascii: ".") {
            i += 1
            while i < u.count, isDigit(u[i]) { (i, digits) = (i + 1, digits + 1) }
        }
        guard digits > 0 else { throw .badOption }
        if i < u.count, u[i] == UInt8(ascii: "e") || u[i] == UInt8(ascii: "E") {
            i += 1
            if i < u.count, u[i] == UInt8(ascii: "+") || u[i] == UInt8(ascii: "-") { i += 1 }
            let start = i
            while i < u.count, isDigit(u[i]) { i += 1 }
            guard i > start, i - start <= 4 else { throw .badOption }
        }
        guard i == u.count, let v = Double(s), v.isFinite, range.contains(v) else { throw .badOption }
        return v
    }

    /// The one argument of a switch option (`ar:1`).
    static func bool(_ args: [String]) throws(ServiceError) -> Bool {
        try count(args, 1...1)
        return try bool(args[0])
    }

    /// Go's `strconv.ParseBool` words, and an empty argument as false (imgproxy's reading of
    /// `fl::1`). Anything else is refused, where imgproxy logs a warning and reads false.
    static func bool(_ s: String) throws(ServiceError) -> Bool {
        switch s {
        case "1", "t", "T", "true", "TRUE", "True": return true
        case "", "0", "f", "F", "false", "FALSE", "False": return false
        default: throw .badOption
        }
    }
}
