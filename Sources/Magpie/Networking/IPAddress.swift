#if canImport(Glibc)
    import Glibc
#endif

/// An IPv4 or IPv6 address, as a socket connects to it.
public enum IPAddress: Sendable, Hashable, CustomStringConvertible {
    case v4(UInt32)
    case v6(UInt128)

    /// Parses the strict textual forms only: a dotted quad of four decimal numbers, or an IPv6
    /// address (`inet_pton`), with or without brackets. Forms that resolvers accept but this does
    /// not (`127.1`, `2130706433`, `0x7f.0.0.1`) are names here: resolving them gives the address
    /// the socket would use, which is what a policy judges.
    public init?(_ text: String) {
        var s = Substring(text)
        if s.hasPrefix("["), s.hasSuffix("]") { s = s.dropFirst().dropLast() }
        let string = String(s)
        var v4 = in_addr()
        if inet_pton(AF_INET, string, &v4) == 1 {
            self = .v4(UInt32(bigEndian: v4.s_addr))
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, string, &v6) == 1 else { return nil }
        self = .v6(Self.value(of: v6))
    }

    /// The address in a `sockaddr` of family `AF_INET` or `AF_INET6`.
    init?(_ address: UnsafePointer<sockaddr>) {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            let raw = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in.self)
            self = .v4(UInt32(bigEndian: raw.sin_addr.s_addr))
        case AF_INET6:
            let raw = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in6.self)
            self = .v6(Self.value(of: raw.sin6_addr))
        default: return nil
        }
    }

    private static func value(of address: in6_addr) -> UInt128 {
        withUnsafeBytes(of: address) { bytes in bytes.reduce(UInt128(0)) { $0 << 8 | UInt128($1) } }
    }

    /// The canonical text (`inet_ntop`): `10.0.0.1`, `::ffff:127.0.0.1`.
    public var description: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch self {
        case .v4(let value):
            var a = in_addr(s_addr: value.bigEndian)
            inet_ntop(AF_INET, &a, &buffer, socklen_t(buffer.count))
        case .v6(let value):
            var a = in6_addr()
            withUnsafeMutableBytes(of: &a) { bytes in
                for i in 0..<16 { bytes[i] = UInt8(truncatingIfNeeded: value >> UInt128(8 * (15 - i))) }
            }
            inet_ntop(AF_INET6, &a, &buffer, socklen_t(buffer.count))
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A block of addresses in CIDR notation (`10.0.0.0/8`, `fc00::/7`; a bare address is a block
/// of one).
public struct IPNetwork: Sendable, Hashable, CustomStringConvertible {
    public let address: IPAddress
    public let prefixLength: Int

    /// `nil` when `cidr` is not an address with an optional `/length` in range, or when the
    /// address has bits set past the prefix (`10.0.0.1/8` is a mistake more often than a network).
    public init?(_ cidr: String) {
        let parts = cidr.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(String(parts[0])) else { return nil }
        let width: Int
        switch address {
        case .v4: width = 32
        case .v6: width = 128
        }
        var length = width
        if parts.count == 2 {
            guard !parts[1].isEmpty, parts[1].allSatisfy(\.isASCII), parts[1].allSatisfy(\.isNumber),
                let n = Int(parts[1]), n <= width
            else { return nil }
            length = n
        }
        self.init(address, prefixLength: length)
        guard self.contains(address), Self.masked(address, length) == address else { return nil }
    }

    init(_ address: IPAddress, prefixLength: Int) {
        self.address = address
        self.prefixLength = prefixLength
    }

    /// Whether `candidate` is in this block (an IPv4 block never holds an IPv6 address: embedded
    /// IPv4 addresses are unwrapped by the policy, not here).
    public func contains(_ candidate: IPAddress) -> Bool {
        switch (address, candidate) {
        case (.v4, .v4), (.v6, .v6): return Self.masked(candidate, prefixLength) == address
        default: return false
        }
    }

    private static func masked(_ a: IPAddress, _ length: Int) -> IPAddress {
        switch a {
        case .v4(let v): return .v4(length == 0 ? 0 : v & ~UInt32(0) << UInt32(32 - length))
        case .v6(let v): return .v6(length == 0 ? 0 : v & ~UInt128(0) << UInt128(128 - length))
        }
    }

    public var description: String { "\(address)/\(prefixLength)" }
}
