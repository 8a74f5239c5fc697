/// thumbor's configuration file as thumbor's users write it: Python assignments, `KEY = value`,
/// which thumbor runs (derpconf `exec`s the file). Magpie runs nothing: it reads the part of
/// Python such files use (strings, numbers and their arithmetic, `True`/`False`/`None`, lists,
/// tuples, dicts, names assigned above) and refuses anything else, naming the line and why
/// (an `import`, a call, `os.environ[…]`: a file that needs Python is not read by halves).
enum ThumborConfFile {
    /// A value of the file, as Python has it (a tuple is read as a list).
    indirect enum Value: Sendable, Equatable, CustomStringConvertible {
        case none
        case bool(Bool)
        case int(Int)
        case float(Double)
        case string(String)
        case list([Value])
        case dict([Pair])

        struct Pair: Sendable, Equatable {
            var key: Value
            var value: Value
        }

        var description: String {
            switch self {
            case .none: "None"
            case .bool(let b): b ? "True" : "False"
            case .int(let n): String(n)
            case .float(let x): String(x)
            case .string(let s): "'" + s + "'"
            case .list(let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
            case .dict(let pairs): "{" + pairs.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
            }
        }
    }

    struct Failure: Error, Equatable, CustomStringConvertible {
        var line: Int
        var reason: String
        var description: String { "line \(line): \(reason)" }
    }

    /// One assignment: the name, its value, the line it starts on.
    struct Assignment: Sendable, Equatable {
        var name: String
        var value: Value
        var line: Int
    }

    /// The file's assignments in order (a name assigned twice appears twice; the last wins, as
    /// in Python).
    static func parse(_ text: String) throws(Failure) -> [Assignment] {
        let tokens = try ThumborConfLexer.tokens(text)
        var parser = ThumborConfParser(tokens: tokens)
        return try parser.file()
    }

    /// The values by name, the last assignment of each.
    static func values(_ assignments: [Assignment]) -> [String: (value: Value, line: Int)] {
        var out: [String: (value: Value, line: Int)] = [:]
        for a in assignments { out[a.name] = (a.value, a.line) }
        return out
    }
}
