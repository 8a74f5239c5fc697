/// Python's string literals: '…' and "…", their triple-quoted forms (which may span lines), raw
/// strings, and the escapes of Python 3 (`\n`, `\xhh`, `\u…`, octal; an unknown escape keeps its
/// backslash, as Python keeps it).
enum ThumborConfStrings {
    typealias Failure = ThumborConfFile.Failure

    /// Reads the literal whose opening quote is at `i`; leaves `i` after its closing quote.
    static func string(_ s: [UInt8], _ i: inout Int, _ line: inout Int, raw: Bool) throws(Failure) -> String {
        let quote = s[i]
        let triple = i + 2 < s.count && s[i + 1] == quote && s[i + 2] == quote
        let startLine = line
        i += triple ? 3 : 1
        var out: [UInt8] = []
        while true {
            guard i < s.count else {
                throw Failure(line: startLine, reason: "a string that is never closed")
            }
            let c = s[i]
            if c == quote {
                if !triple {
                    i += 1
                    break
                }
                if i + 2 < s.count, s[i + 1] == quote, s[i + 2] == quote {
                    i += 3
                    break
                }
            }
            if c == UInt8(ascii: "\n") {
                guard triple else { throw Failure(line: line, reason: "a string that is never closed") }
                line += 1
            }
            if c == UInt8(ascii: "\\"), i + 1 < s.count {
                if raw {
                    // A raw string keeps the backslash and the character after it (even a quote).
                    out.append(c)
                    out.append(s[i + 1])
                    if s[i + 1] == UInt8(ascii: "\n") { line += 1 }
                    i += 2
                    continue
                }
                i += 1
                try escape(s, &i, &line, into: &out)
                continue
            }
            out.append(c)
            i += 1
        }
        guard let text = String(validating: out, as: UTF8.self) else {
            throw Failure(line: startLine, reason: "a string that is not UTF-8")
        }
        return text
    }

    /// One escape; `i` is at the character after the backslash.
    private static func escape(_ s: [UInt8], _ i: inout Int, _ line: inout Int, into out: inout [UInt8])
        throws(Failure)
    {
        let e = s[i]
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "n"): 0x0A, UInt8(ascii: "t"): 0x09, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "a"): 0x07,
            UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C, UInt8(ascii: "v"): 0x0B, UInt8(ascii: "\\"): 0x5C,
            UInt8(ascii: "'"): 0x27, UInt8(ascii: "\""): 0x22,
        ]
        if let byte = simple[e] {
            out.append(byte)
            i += 1
            return
        }
        if e == UInt8(ascii: "\n") {
            // A backslash at a line's end joins the lines inside the string.
            line += 1
            i += 1
            return
        }
        if e >= UInt8(ascii: "0") && e <= UInt8(ascii: "7") {
            var value: UInt32 = 0
            var n = 0
            while n < 3, i < s.count, s[i] >= UInt8(ascii: "0"), s[i] <= UInt8(ascii: "7") {
                value = value * 8 + UInt32(s[i] - UInt8(ascii: "0"))
                i += 1
                n += 1
            }
            try append(value, line, &out)
            return
        }
        let widths: [UInt8: Int] = [UInt8(ascii: "x"): 2, UInt8(ascii: "u"): 4, UInt8(ascii: "U"): 8]
        if let width = widths[e] {
            guard i + width < s.count,
                let value = UInt32(String(decoding: s[(i + 1)...(i + width)], as: UTF8.self), radix: 16)
            else { throw Failure(line: line, reason: "a malformed \\\(String(UnicodeScalar(e))) escape") }
            i += 1 + width
            try append(value, line, &out)
            return
        }
        if e == UInt8(ascii: "N") {
            throw Failure(line: line, reason: "a \\N{…} escape (named characters are not read)")
        }
        // Python keeps an unknown escape as it is.
        out.append(UInt8(ascii: "\\"))
    }

    private static func append(_ value: UInt32, _ line: Int, _ out: inout [UInt8]) throws(Failure) {
        guard let scalar = Unicode.Scalar(value) else {
            throw Failure(line: line, reason: "an escape that is no Unicode character")
        }
        out.append(contentsOf: Array(String(Character(scalar)).utf8))
    }
}
