/// The tokens of a thumbor.conf, as Python's tokenizer makes them: a logical line ends at a
/// newline outside brackets (or at `;`), `\` at a line's end continues it, `#` starts a comment.
enum ThumborConfLexer {
    enum Kind: Equatable {
        case name(String)
        case int(Int)
        case float(Double)
        case string(String)
        case op(String)
        case newline
        case end
    }

    struct Token: Equatable {
        var kind: Kind
        var line: Int
    }

    typealias Failure = ThumborConfFile.Failure
    /// The token of an indented line's start.
    static let indent = "<indent>"

    static func tokens(_ text: String) throws(Failure) -> [Token] {
        let s = Array(text.utf8)
        var out: [Token] = []
        var i = 0
        var line = 1
        var depth = 0
        var atLineStart = true
        func peek(_ k: Int = 0) -> UInt8 { i + k < s.count ? s[i + k] : 0 }
        while i < s.count {
            let c = s[i]
            if c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") || c == 0x0C || c == UInt8(ascii: "\r") {
                // Python refuses an indented statement at a module's top level.
                if atLineStart && depth == 0 && c != UInt8(ascii: "\r") {
                    var j = i
                    while j < s.count, s[j] == UInt8(ascii: " ") || s[j] == UInt8(ascii: "\t") { j += 1 }
                    if j < s.count, s[j] != UInt8(ascii: "#"), s[j] != UInt8(ascii: "\n"), s[j] != UInt8(ascii: "\r") {
                        // The parser refuses it, after whatever the lines above hold.
                        out.append(Token(kind: .op(Self.indent), line: line))
                        atLineStart = false
                    }
                    i = j
                    continue
                }
                i += 1
                continue
            }
            if c == UInt8(ascii: "#") {
                while i < s.count, s[i] != UInt8(ascii: "\n") { i += 1 }
                continue
            }
            if c == UInt8(ascii: "\n") {
                if depth == 0 && !atLineStart { out.append(Token(kind: .newline, line: line)) }
                if depth == 0 { atLineStart = true }
                line += 1
                i += 1
                continue
            }
            if c == UInt8(ascii: "\\") {
                var j = i + 1
                if j < s.count, s[j] == UInt8(ascii: "\r") { j += 1 }
                guard j < s.count, s[j] == UInt8(ascii: "\n") else {
                    throw Failure(line: line, reason: "a backslash outside a string that does not end the line")
                }
                i = j + 1
                line += 1
                continue
            }
            atLineStart = false
            let start = line
            if isNameStart(c) {
                var j = i
                while j < s.count, isNameStart(s[j]) || isDigit(s[j]) { j += 1 }
                let word = String(decoding: s[i..<j], as: UTF8.self)
                // A string prefix: r'…', u'…' (b'…' and f'…' are bytes and computed strings).
                if j < s.count, s[j] == UInt8(ascii: "'") || s[j] == UInt8(ascii: "\"") {
                    let prefix = word.lowercased()
                    guard prefix == "r" || prefix == "u" else {
                        throw Failure(
                            line: line, reason: "a \(word)'…' string (only plain, r'…' and u'…' strings are read)")
                    }
                    i = j
                    let text = try ThumborConfStrings.string(s, &i, &line, raw: prefix == "r")
                    out.append(Token(kind: .string(text), line: start))
                    continue
                }
                out.append(Token(kind: .name(word), line: line))
                i = j
                continue
            }
            if isDigit(c) || (c == UInt8(ascii: ".") && isDigit(peek(1))) {
                out.append(Token(kind: try number(s, &i, line), line: line))
                continue
            }
            if c == UInt8(ascii: "'") || c == UInt8(ascii: "\"") {
                let text = try ThumborConfStrings.string(s, &i, &line, raw: false)
                out.append(Token(kind: .string(text), line: start))
                continue
            }
            if c == UInt8(ascii: ";") {
                if depth == 0 { out.append(Token(kind: .newline, line: line)) }
                i += 1
                continue
            }
            var op = String(UnicodeScalar(c))
            for two in ["//", "**", "==", "!=", "<=", ">=", "+=", "-=", "*=", "/=", "->", ":="]
            where peek() == two.utf8.first! && peek(1) == two.utf8.last! {
                op = two
            }
            guard "()[]{},:=+-*/%.<>!@&|^~".utf8.contains(c) || op.utf8.count == 2 else {
                throw Failure(line: line, reason: "a character Python does not read here: \(String(UnicodeScalar(c)))")
            }
            if op == "(" || op == "[" || op == "{" { depth += 1 }
            if op == ")" || op == "]" || op == "}" { depth = max(0, depth - 1) }
            out.append(Token(kind: .op(op), line: line))
            i += op.utf8.count
        }
        if depth > 0 { throw Failure(line: line, reason: "a bracket that is never closed") }
        if !atLineStart { out.append(Token(kind: .newline, line: line)) }
        out.append(Token(kind: .end, line: line))
        return out
    }

    static func isNameStart(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
            || c == UInt8(ascii: "_")
    }

    static func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }

    /// An integer (decimal, `0x`, `0o`, `0b`, with `_` between digits) or a float (`1.5`, `.5`,
    /// `75e6`); a complex number (`2j`) is refused.
    static func number(_ s: [UInt8], _ i: inout Int, _ line: Int) throws(Failure) -> Kind {
        var j = i
        func isHex(_ c: UInt8) -> Bool {
            isDigit(c) || (c | 0x20 >= UInt8(ascii: "a") && c | 0x20 <= UInt8(ascii: "f"))
        }
        if s[j] == UInt8(ascii: "0"), j + 1 < s.count, "xXoObB".utf8.contains(s[j + 1]) {
            let radix = s[j + 1] | 0x20 == UInt8(ascii: "x") ? 16 : s[j + 1] | 0x20 == UInt8(ascii: "o") ? 8 : 2
            j += 2
            let digitsStart = j
            while j < s.count, isHex(s[j]) || s[j] == UInt8(ascii: "_") { j += 1 }
            let digits = String(decoding: s[digitsStart..<j].filter { $0 != UInt8(ascii: "_") }, as: UTF8.self)
            i = j
            guard let n = Int(digits, radix: radix) else {
                throw Failure(line: line, reason: "a number too large or malformed")
            }
            return .int(n)
        }
        var isFloat = false
        while j < s.count, isDigit(s[j]) || s[j] == UInt8(ascii: "_") { j += 1 }
        if j < s.count, s[j] == UInt8(ascii: ".") {
            isFloat = true
            j += 1
            while j < s.count, isDigit(s[j]) || s[j] == UInt8(ascii: "_") { j += 1 }
        }
        if j < s.count, s[j] | 0x20 == UInt8(ascii: "e") {
            var k = j + 1
            if k < s.count, s[k] == UInt8(ascii: "+") || s[k] == UInt8(ascii: "-") { k += 1 }
            if k < s.count, isDigit(s[k]) {
                isFloat = true
                j = k
                while j < s.count, isDigit(s[j]) { j += 1 }
            }
        }
        if j < s.count, s[j] | 0x20 == UInt8(ascii: "j") {
            throw Failure(line: line, reason: "a complex number")
        }
        let text = String(decoding: s[i..<j].filter { $0 != UInt8(ascii: "_") }, as: UTF8.self)
        i = j
        if isFloat {
            guard let x = Double(text), x.isFinite else { throw Failure(line: line, reason: "a malformed number") }
            return .float(x)
        }
        guard let n = Int(text) else { throw Failure(line: line, reason: "an integer too large for 64 bits") }
        return .int(n)
    }
}
