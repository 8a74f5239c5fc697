/// What kind of address an IP address is, after the IANA special-purpose address registries
/// (IPv4 and IPv6) and the multicast ones.
public enum AddressClass: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Globally reachable unicast.
    case publicUnicast = "public"
    /// `0.0.0.0/8`, `::`: on Linux, connecting to them reaches this host.
    case unspecified
    /// `127.0.0.0/8`, `::1`.
    case loopback
    /// `169.254.0.0/16`, `fe80::/10`: where cloud metadata services answer.
    case linkLocal = "link-local"
    /// RFC 1918: `10.0.0.0/8`, `172.16.0.0/12`, `192.168.0.0/16`.
    case privateUse = "private"
    /// `100.64.0.0/10`, carrier-grade NAT (RFC 6598): a provider's internal network.
    case sharedAddressSpace = "shared address space"
    /// `fc00::/7` (RFC 4193).
    case uniqueLocal = "unique local"
    /// `fec0::/10`, deprecated but still routed on some networks.
    case siteLocal = "site-local"
    /// `224.0.0.0/4`, `ff00::/8`.
    case multicast
    /// `255.255.255.255`.
    case broadcast
    /// `198.18.0.0/15`, `2001:2::/48`.
    case benchmarking
    /// `192.0.2.0/24`, `198.51.100.0/24`, `203.0.113.0/24`, `2001:db8::/32`, `3fff::/20`.
    case documentation
    /// Everything else the registries mark as not globally reachable: `240.0.0.0/4`,
    /// `192.0.0.0/24`, `100::/64`, `2001::/23`, `64:ff9b:1::/48`, `5f00::/16`, and IPv6 outside
    /// `2000::/3`.
    case reserved

    public var description: String { rawValue }

    /// The class of `address` itself. An IPv6 address that carries an IPv4 one (mapped,
    /// compatible, 6to4, NAT64, Teredo, ISATAP) is classed by its own block here; the policy also
    /// judges the IPv4 address it carries (see ``IPAddress/embeddedIPv4``).
    public init(_ address: IPAddress) {
        switch address {
        case .v4(let v): self = Self.classify(v4: v)
        case .v6(let v): self = Self.classify(v6: v)
        }
    }

    private static func classify(v4 a: UInt32) -> AddressClass {
        func inBlock(_ base: UInt32, _ length: UInt32) -> Bool { a >> (32 - length) == base >> (32 - length) }
        if a == 0xFFFF_FFFF { return .broadcast }
        if inBlock(0x0000_0000, 8) { return .unspecified }
        if inBlock(0x7F00_0000, 8) { return .loopback }
        if inBlock(0xA9FE_0000, 16) { return .linkLocal }
        if inBlock(0x0A00_0000, 8) || inBlock(0xAC10_0000, 12) || inBlock(0xC0A8_0000, 16) { return .privateUse }
        if inBlock(0x6440_0000, 10) { return .sharedAddressSpace }
        if inBlock(0xE000_0000, 4) { return .multicast }
        if inBlock(0xC612_0000, 15) { return .benchmarking }
        if inBlock(0xC000_0200, 24) || inBlock(0xC633_6400, 24) || inBlock(0xCB00_7100, 24) { return .documentation }
        // 192.0.0.0/24 is IETF protocol assignments, not globally reachable but for two anycast
        // services (PCP, TURN); 192.88.99.0/24 is the deprecated 6to4 relay anycast.
        if inBlock(0xC000_0000, 24) { return a == 0xC000_0009 || a == 0xC000_000A ? .publicUnicast : .reserved }
        if inBlock(0xC058_6300, 24) || inBlock(0xF000_0000, 4) { return .reserved }
        return .publicUnicast
    }

    private static func classify(v6 a: UInt128) -> AddressClass {
        func inBlock(_ base: UInt128, _ length: Int) -> Bool {
            a >> UInt128(128 - length) == base >> UInt128(128 - length)
        }
        func hex(_ groups: UInt16...) -> UInt128 {
            groups.enumerated().reduce(UInt128(0)) { $0 | UInt128($1.element) << UInt128(112 - 16 * $1.offset) }
        }
        if a == 0 { return .unspecified }
        if a == 1 { return .loopback }
        if inBlock(hex(0xFF00), 8) { return .multicast }
        if inBlock(hex(0xFE80), 10) { return .linkLocal }
        if inBlock(hex(0xFEC0), 10) { return .siteLocal }
        if inBlock(hex(0xFC00), 7) { return .uniqueLocal }
        if inBlock(hex(0x2001, 0x0DB8), 32) || inBlock(hex(0x3FFF), 20) { return .documentation }
        if inBlock(hex(0x2001, 0x0002), 48) { return .benchmarking }
        if inBlock(hex(0x0064, 0xFF9B), 96) { return .publicUnicast }  // NAT64: judged by its IPv4
        if inBlock(hex(0x2001), 23) {
            // IETF protocol assignments: Teredo (judged by its IPv4s), and the few globally
            // reachable ones (PCP and TURN anycast, AMT, AS112, ORCHIDv2).
            if inBlock(hex(0x2001), 32) || a == hex(0x2001, 1, 0, 0, 0, 0, 0, 1)
                || a == hex(0x2001, 1, 0, 0, 0, 0, 0, 2)
                || inBlock(hex(0x2001, 3), 32) || inBlock(hex(0x2001, 4, 0x112), 48) || inBlock(hex(0x2001, 0x20), 28)
            {
                return .publicUnicast
            }
            return .reserved
        }
        if inBlock(hex(0x2002), 16) { return .publicUnicast }  // 6to4: judged by its IPv4
        if inBlock(hex(0x5F00), 16) { return .reserved }  // SRv6 SIDs
        if inBlock(hex(0x2000), 3) { return .publicUnicast }
        // Outside global unicast: IPv4-mapped and -compatible addresses (judged by their IPv4),
        // the discard prefix 100::/64, NAT64 local use 64:ff9b:1::/48, and unassigned space.
        if inBlock(0, 96) || inBlock(hex(0, 0, 0, 0, 0, 0xFFFF), 96) { return .publicUnicast }
        return .reserved
    }
}

extension IPAddress {
    /// The IPv4 address an IPv6 one carries and would reach (through the host's own stack, a
    /// relay or a translator): IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible `::a.b.c.d`, NAT64
    /// `64:ff9b::a.b.c.d`, 6to4 `2002:AABB:CCDD::`, ISATAP `…:0:5efe:a.b.c.d` (or `200:5efe`),
    /// and Teredo's server and client (`2001:0:SSSS:SSSS:…:~CCCC:~CCCC`). Empty for IPv4.
    public var embeddedIPv4: [IPAddress] {
        guard case .v6(let a) = self else { return [] }
        let low32 = IPAddress.v4(UInt32(truncatingIfNeeded: a))
        let top = a >> 96
        if a >> 32 == 0xFFFF || (a >> 32 == 0 && a > 1) { return [low32] }
        if a >> 32 == UInt128(0x0064_FF9B) << 64 { return [low32] }
        if top >> 16 == 0x2002 { return [.v4(UInt32(truncatingIfNeeded: a >> 80))] }
        if top == 0x2001_0000 {
            return [.v4(UInt32(truncatingIfNeeded: a >> 64)), .v4(~UInt32(truncatingIfNeeded: a))]
        }
        let interface = UInt64(truncatingIfNeeded: a) >> 32
        if interface == 0x0000_5EFE || interface == 0x0200_5EFE { return [low32] }
        return []
    }
}
