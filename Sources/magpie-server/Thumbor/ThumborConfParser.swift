/// Assignments and the expressions they hold, with Python's precedence and arithmetic: `+ -`,
/// then `* / // %`, then unary `-`/`+`, then `**`; `/` of two integers is a float, `//` and `%`
/// floor as Python's do. A name is read only when assigned above (`ROOT = '/srv'`, then
/// `FILE_LOADER_ROOT_PATH = ROOT + '/images'`).
struct ThumborConfParser {
    typealias Value = ThumborConfFile.Value
    typealias Failure = ThumborConfFile.Failure
    typealias Token = ThumborConfLexer.Token

    let tokens: [Token]
    var at = 0
    var names: [String: Value] = [:]
    /// The functions of `os.path` imported above (``ThumborConfPaths``).
    var functions: Set<String> = []
    /// Strings and lists that arithmetic makes are bounded (`'x' * 10**9` is refused, not built).
    static let largest = 1 << 20

    init(tokens: [Token]) { self.tokens = tokens }

    var token: Token { tokens[at] }

    mutating func file() throws(Failure) -> [ThumborConfFile.Assignment] {
        var out: [ThumborConfFile.Assignment] = []
        while token.kind != .end {
            if token.kind == .newline {
                at += 1
                continue
            }
            let line = token.line
            if token.kind == .op(ThumborConfLexer.indent) {
                throw Failure(line: line, reason: "an indented line (Python refuses it at the top level)")
            }
            if try importOfPath() { continue }
            guard case .name(let name) = token.kind, !Self.keywords.contains(name) else {
                throw Failure(line: line, reason: "only `NAME = value` assignments are read, not \(shown(token))")
            }
            at += 1
            guard token.kind == .op("=") else {
                throw Failure(
                    line: line,
                    reason: "only `NAME = value` assignments are read (\(name) is followed by \(shown(token)))")
            }
            at += 1
            let value = try expression()
            guard token.kind == .newline || token.kind == .end else {
                throw Failure(line: token.line, reason: "\(shown(token)) after the value of \(name)")
            }
            names[name] = value
            out.append(ThumborConfFile.Assignment(name: name, value: value, line: line))
        }
        return out
    }

    /// `from os.path import expanduser, join`, as the file `thumbor-config` writes begins: the
    /// two functions it names are read (``ThumborConfPaths``); another import is refused.
    mutating func importOfPath() throws(Failure) -> Bool {
        guard token.kind == .name("from") else { return false }
        let line = token.line
        let words = tokens[at...].prefix { $0.kind != .newline && $0.kind != .end }
        var names: [String] = []
        var expect = ["from", "os", ".", "path", "import"]
        for t in words {
            switch t.kind {
            case .name(let w) where !expect.isEmpty && w == expect[0]: expect.removeFirst()
            case .op(let o) where !expect.isEmpty && o == expect[0]: expect.removeFirst()
            case .name(let w) where expect.isEmpty && ThumborConfPaths.names.contains(w): names.append(w)
            case .op(",") where expect.isEmpty: continue
            default:
                throw Failure(
                    line: line,
                    reason: "an import (only `from os.path import expanduser, join` is read: the file runs no Python)")
            }
        }
        guard expect.isEmpty, !names.isEmpty else {
            throw Failure(line: line, reason: "an import (only `from os.path import expanduser, join` is read)")
        }
        functions.formUnion(names)
        at += words.count
        return true
    }

    static let keywords: Set<String> = [
        "import", "from", "def", "class", "if", "else", "elif", "for", "while", "with", "try", "except", "lambda",
        "return", "del", "global", "nonlocal", "assert", "raise", "pass", "not", "and", "or", "in", "is", "async",
        "await", "yield",
    ]

    func shown(_ t: Token) -> String {
        switch t.kind {
        case .name(let n): "`\(n)`"
        case .int(let n): "`\(n)`"
        case .float(let x): "`\(x)`"
        case .string: "a string"
        case .op(let o): "`\(o)`"
        case .newline, .end: "the line's end"
        }
    }

    mutating func expression() throws(Failure) -> Value {
        var left = try term()
        while case .op(let op) = token.kind, op == "+" || op == "-" {
            let line = token.line
            at += 1
            left = try ThumborConfArithmetic.apply(op, left, try term(), line: line)
        }
        return left
    }

    mutating func term() throws(Failure) -> Value {
        var left = try unary()
        while case .op(let op) = token.kind, ["*", "/", "//", "%"].contains(op) {
            let line = token.line
            at += 1
            left = try ThumborConfArithmetic.apply(op, left, try unary(), line: line)
        }
        return left
    }

    mutating func unary() throws(Failure) -> Value {
        if case .op(let op) = token.kind, op == "-" || op == "+" {
            let line = token.line
            at += 1
            return try ThumborConfArithmetic.apply(op, .int(0), try unary(), line: line)
        }
        return try power()
    }

    mutating func power() throws(Failure) -> Value {
        let base = try atom()
        if token.kind == .op("**") {
            let line = token.line
            at += 1
            return try ThumborConfArithmetic.apply("**", base, try unary(), line: line)
        }
        return base
    }

    mutating func atom() throws(Failure) -> Value {
        let t = token
        at += 1
        var value: Value
        switch t.kind {
        case .int(let n): value = .int(n)
        case .float(let x): value = .float(x)
        case .string(var s):
            // Adjacent literals are one string.
            while case .string(let more) = token.kind {
                s += more
                at += 1
            }
            value = .string(s)
        case .name("True"): value = .bool(true)
        case .name("False"): value = .bool(false)
        case .name("None"): value = .none
        case .name(let name) where functions.contains(name) && token.kind == .op("("):
            at += 1
            let arguments =
                token.kind == .op(")")
                ? {
                    at += 1; return []
                }() : try items(first: nil, closing: ")")
            value = try ThumborConfPaths.call(name, arguments, line: t.line)
        case .name(let name):
            guard let known = names[name] else {
                throw Failure(
                    line: t.line, reason: "`\(name)` is not assigned above (only values and earlier names are read)")
            }
            value = known
        case .op("("):
            if token.kind == .op(")") {
                at += 1
                value = .list([])
            } else {
                let first = try expression()
                if token.kind == .op(")") {
                    at += 1
                    value = first
                } else {
                    value = .list(try items(first: first, closing: ")"))
                }
            }
        case .op("["):
            value = .list(
                token.kind == .op("]")
                    ? {
                        at += 1; return []
                    }() : try items(first: nil, closing: "]"))
        case .op("{"): value = .dict(try pairs())
        default:
            throw Failure(line: t.line, reason: "\(shown(t)) where a value was expected")
        }
        // A call, an index or an attribute (`os.environ['X']`, `int('5')`) needs Python.
        if case .op(let op) = token.kind, op == "(" || op == "[" || op == "." {
            throw Failure(line: token.line, reason: "a call, an index or an attribute (`\(op)`): only values are read")
        }
        return value
    }

    /// The items of a list or tuple up to `closing` (a trailing comma allowed).
    mutating func items(first: Value?, closing: String) throws(Failure) -> [Value] {
        var out: [Value] = []
        if let first {
            out.append(first)
            guard token.kind == .op(",") else {
                throw Failure(
                    line: token.line, reason: "\(shown(token)) in a list (a comma or `\(closing)` was expected)")
            }
            at += 1
        }
        while token.kind != .op(closing) {
            out.append(try expression())
            if token.kind == .op(",") {
                at += 1
            } else if token.kind != .op(closing) {
                throw Failure(
                    line: token.line, reason: "\(shown(token)) in a list (a comma or `\(closing)` was expected)")
            }
        }
        at += 1
        return out
    }

    mutating func pairs() throws(Failure) -> [Value.Pair] {
        var out: [Value.Pair] = []
        while token.kind != .op("}") {
            let key = try expression()
            guard token.kind == .op(":") else {
                throw Failure(line: token.line, reason: "\(shown(token)) in a dict (`:` was expected)")
            }
            at += 1
            out.append(Value.Pair(key: key, value: try expression()))
            if token.kind == .op(",") {
                at += 1
            } else if token.kind != .op("}") {
                throw Failure(line: token.line, reason: "\(shown(token)) in a dict (a comma or `}` was expected)")
            }
        }
        at += 1
        return out
    }
}
