#if canImport(Glibc)
    import Glibc
#endif

/// Python's arithmetic on the values of a thumbor.conf: integers stay integers (an overflow of
/// 64 bits is refused, where Python would grow them), `True` and `False` count as 1 and 0, `/`
/// makes a float, `//` and `%` floor toward negative infinity, strings and lists concatenate
/// and repeat (within ``ThumborConfParser/largest``).
enum ThumborConfArithmetic {
    typealias Value = ThumborConfFile.Value
    typealias Failure = ThumborConfFile.Failure

    static func apply(_ op: String, _ a: Value, _ b: Value, line: Int) throws(Failure) -> Value {
        switch (integer(a), integer(b)) {
        case (let x?, let y?): return try ints(op, x, y, line: line)
        default: break
        }
        if let x = real(a), let y = real(b) { return try floats(op, x, y, line: line) }
        switch (op, a, b) {
        case ("+", .string(let x), .string(let y)): return try bounded(.string(x + y), line)
        case ("+", .list(let x), .list(let y)): return try bounded(.list(x + y), line)
        case ("*", .string(let x), _), ("*", _, .string(let x)):
            guard let n = integer(b) ?? integer(a),
                n.multipliedReportingOverflow(by: max(1, x.utf8.count)).overflow == false,
                n * x.utf8.count <= ThumborConfParser.largest
            else { throw Failure(line: line, reason: "a repeated string too large") }
            return .string(String(repeating: x, count: max(0, n)))
        case ("*", .list(let x), _), ("*", _, .list(let x)):
            guard let n = integer(b) ?? integer(a),
                n.multipliedReportingOverflow(by: max(1, x.count)).overflow == false,
                n * x.count <= ThumborConfParser.largest
            else { throw Failure(line: line, reason: "a repeated list too large") }
            return .list(Array([[Value]](repeating: x, count: max(0, n)).joined()))
        default:
            throw Failure(line: line, reason: "`\(op)` between \(kind(a)) and \(kind(b)) (Python refuses it)")
        }
    }

    static func integer(_ v: Value) -> Int? {
        switch v {
        case .int(let n): n
        case .bool(let b): b ? 1 : 0
        default: nil
        }
    }

    static func real(_ v: Value) -> Double? {
        if case .float(let x) = v { return x }
        return integer(v).map(Double.init)
    }

    static func kind(_ v: Value) -> String {
        switch v {
        case .none: "None"
        case .bool: "a boolean"
        case .int: "an integer"
        case .float: "a float"
        case .string: "a string"
        case .list: "a list"
        case .dict: "a dict"
        }
    }

    private static func ints(_ op: String, _ x: Int, _ y: Int, line: Int) throws(Failure) -> Value {
        func checked(_ r: (partialValue: Int, overflow: Bool)) throws(Failure) -> Value {
            guard !r.overflow else { throw Failure(line: line, reason: "an integer too large for 64 bits") }
            return .int(r.partialValue)
        }
        switch op {
        case "+": return try checked(x.addingReportingOverflow(y))
        case "-": return try checked(x.subtractingReportingOverflow(y))
        case "*": return try checked(x.multipliedReportingOverflow(by: y))
        case "/":
            guard y != 0 else { throw Failure(line: line, reason: "a division by zero") }
            return .float(Double(x) / Double(y))
        case "//", "%":
            guard y != 0 else { throw Failure(line: line, reason: "a division by zero") }
            guard !(x == .min && y == -1) else { throw Failure(line: line, reason: "an integer too large for 64 bits") }
            var q = x / y
            var r = x % y
            if r != 0 && ((r < 0) != (y < 0)) {
                q -= 1
                r += y
            }
            return .int(op == "//" ? q : r)
        case "**":
            if y < 0 { return .float(pow(Double(x), Double(y))) }
            var result = 1
            for _ in 0..<min(y, 64) {
                let r = result.multipliedReportingOverflow(by: x)
                guard !r.overflow else { throw Failure(line: line, reason: "an integer too large for 64 bits") }
                result = r.partialValue
            }
            if y > 64 && abs(x) > 1 { throw Failure(line: line, reason: "an integer too large for 64 bits") }
            if y > 64 && x == -1 { return .int(y % 2 == 0 ? 1 : -1) }
            return .int(result)
        default:
            throw Failure(line: line, reason: "`\(op)`")
        }
    }

    private static func floats(_ op: String, _ x: Double, _ y: Double, line: Int) throws(Failure) -> Value {
        let r: Double
        switch op {
        case "+": r = x + y
        case "-": r = x - y
        case "*": r = x * y
        case "/", "//", "%":
            guard y != 0 else { throw Failure(line: line, reason: "a division by zero") }
            if op == "/" {
                r = x / y
            } else {
                let q = (x / y).rounded(.down)
                r = op == "//" ? q : x - q * y
            }
        case "**": r = pow(x, y)
        default: throw Failure(line: line, reason: "`\(op)`")
        }
        guard r.isFinite else { throw Failure(line: line, reason: "a float that overflows") }
        return .float(r)
    }

    private static func bounded(_ v: Value, _ line: Int) throws(Failure) -> Value {
        switch v {
        case .string(let s) where s.utf8.count > ThumborConfParser.largest:
            throw Failure(line: line, reason: "a string too large")
        case .list(let items) where items.count > ThumborConfParser.largest:
            throw Failure(line: line, reason: "a list too large")
        default: return v
        }
    }
}
