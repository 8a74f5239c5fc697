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
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
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
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}
