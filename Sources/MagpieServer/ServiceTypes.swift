/// A request as the HTTP server hands it over: the method, the raw request target (path and
/// query, not decoded) and the header fields.
public struct ServiceRequest: Sendable {
    public var method: String
    public var target: String
    public var headers: [(name: String, value: String)]

    public init(method: String, target: String, headers: [(name: String, value: String)] = []) {
        self.method = method
        self.target = target
        self.headers = headers
    }

    /// The request as a service mounted at `prefix` sees it (the prefix removed from its target),
    /// or `nil` when the target is not under `prefix`. `""` mounts at the root.
    public func mounted(at prefix: String) -> ServiceRequest? {
        guard !prefix.isEmpty else { return self }
        guard target.hasPrefix(prefix) else { return nil }
        let rest = target.dropFirst(prefix.count)
        guard rest.isEmpty || rest.hasPrefix("/") || rest.hasPrefix("?") else { return nil }
        var inner = self
        inner.target = rest.hasPrefix("/") ? String(rest) : "/" + rest
        return inner
    }

    /// The first value of header `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { ASCII.equalIgnoringCase($0.name, name) }?.value
    }

    /// The target without its query string.
    var path: Substring {
        guard let q = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return target[...] }
        return target[..<q]
    }
}

enum ASCII {
    /// Whether `a` and `b` are equal with ASCII letters folded to lowercase (header names).
    static func equalIgnoringCase(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count
            && zip(a.utf8, b.utf8).allSatisfy { x, y in
                x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= 0x61 && (x | 0x20) <= 0x7A)
            }
    }
}

/// What the HTTP server sends back.
public struct ServiceResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public func header(_ name: String) -> String? {
        headers.first { ASCII.equalIgnoringCase($0.name, name) }?.value
    }
}
