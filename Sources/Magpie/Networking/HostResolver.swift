#if canImport(Glibc)
    import Glibc
#endif

/// Turns a host name into the addresses a connection may use. The HTTP transport asks it once
/// per pinned connection target (see ``HTTPDataLoader``); tests give one that answers what they
/// script.
public protocol HostResolver: Sendable {
    /// Every address `host` resolves to, in the order a connection should try them. Throws
    /// ``ImageDownloadError/connectionFailed(_:)`` when the name does not resolve.
    func addresses(of host: String, port: Int) async throws -> [IPAddress]
}

/// The system's resolver (`getaddrinfo`, as the HTTP client itself would call it), run on a
/// few threads of its own so that a slow DNS server cannot hold up disk work.
public struct SystemResolver: HostResolver {
    private static let executor = BlockingExecutor(label: "magpie.resolve", width: 4)

    public init() {}

    public func addresses(of host: String, port: Int) async throws -> [IPAddress] {
        let result = try await Self.executor.run { () -> Result<[IPAddress], ImageDownloadError> in
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var list: UnsafeMutablePointer<addrinfo>?
            let status = getaddrinfo(host, String(port), &hints, &list)
            guard status == 0, let first = list else {
                let why = status == 0 ? "no address" : String(cString: gai_strerror(status))
                return .failure(.connectionFailed("cannot resolve \(host): \(why)"))
            }
            defer { freeaddrinfo(first) }
            var found: [IPAddress] = []
            var next: UnsafeMutablePointer<addrinfo>? = first
            while let entry = next {
                if let sa = entry.pointee.ai_addr, let address = IPAddress(UnsafePointer(sa)),
                    !found.contains(address)
                {
                    found.append(address)
                }
                next = entry.pointee.ai_next
            }
            return found.isEmpty ? .failure(.connectionFailed("cannot resolve \(host): no address")) : .success(found)
        }
        return try result.get()
    }
}
