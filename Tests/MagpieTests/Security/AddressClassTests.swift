import Testing

@testable import Magpie

/// The classification behind ``AddressPolicy``, against the IANA IPv4 and IPv6 special-purpose
/// address registries and the multicast blocks: each row an address, its class, and whether
/// ``AddressPolicy/publicOnly`` lets a connection reach it. No traffic.
@Suite struct AddressClassTests {
    static let registry: [(String, AddressClass, Bool)] = [
        // IPv4 special-purpose registry
        ("0.0.0.0", .unspecified, false), ("0.1.2.3", .unspecified, false),
        ("10.0.0.5", .privateUse, false), ("10.255.255.255", .privateUse, false),
        ("100.64.0.1", .sharedAddressSpace, false), ("100.127.255.254", .sharedAddressSpace, false),
        ("100.63.255.255", .publicUnicast, true), ("100.128.0.0", .publicUnicast, true),
        ("127.0.0.1", .loopback, false), ("127.255.255.254", .loopback, false),
        ("169.254.169.254", .linkLocal, false), ("169.254.0.1", .linkLocal, false),
        ("172.16.0.1", .privateUse, false), ("172.31.255.255", .privateUse, false),
        ("172.32.0.1", .publicUnicast, true),
        ("192.0.0.1", .reserved, false), ("192.0.0.9", .publicUnicast, true), ("192.0.0.10", .publicUnicast, true),
        ("192.0.2.1", .documentation, false), ("192.31.196.1", .publicUnicast, true),
        ("192.52.193.1", .publicUnicast, true), ("192.88.99.1", .reserved, false),
        ("192.168.1.1", .privateUse, false), ("192.175.48.1", .publicUnicast, true),
        ("198.18.0.1", .benchmarking, false), ("198.19.255.255", .benchmarking, false),
        ("198.20.0.0", .publicUnicast, true), ("198.51.100.7", .documentation, false),
        ("203.0.113.9", .documentation, false), ("224.0.0.1", .multicast, false),
        ("239.255.255.250", .multicast, false),
        ("240.0.0.1", .reserved, false), ("255.255.255.255", .broadcast, false),
        ("8.8.8.8", .publicUnicast, true), ("1.1.1.1", .publicUnicast, true), ("93.184.215.14", .publicUnicast, true),
        // IPv6 special-purpose registry
        ("::", .unspecified, false), ("::1", .loopback, false),
        ("fe80::1", .linkLocal, false), ("febf::1", .linkLocal, false), ("fec0::1", .siteLocal, false),
        ("fc00::1", .uniqueLocal, false), ("fd12:3456::1", .uniqueLocal, false),
        ("ff02::1", .multicast, false), ("2001:db8::1", .documentation, false), ("3fff::1", .documentation, false),
        ("2001:2::1", .benchmarking, false), ("100::1", .reserved, false), ("64:ff9b:1::1", .reserved, false),
        ("2001:1::1", .publicUnicast, true), ("2001:1::3", .reserved, false), ("2001:3::1", .publicUnicast, true),
        ("2001:4:112::1", .publicUnicast, true), ("2001:10::1", .reserved, false), ("2001:20::1", .publicUnicast, true),
        ("5f00::1", .reserved, false), ("4000::1", .reserved, false),
        ("2606:4700::1111", .publicUnicast, true), ("2a00:1450:4001::1", .publicUnicast, true),
    ]

    @Test(arguments: registry)
    func theRegistriesClassifyEachBlock(_ text: String, _ expected: AddressClass, _ reachable: Bool) throws {
        let address = try #require(IPAddress(text))
        #expect(AddressClass(address) == expected, "\(text)")
        #expect((AddressPolicy.publicOnly.denial(of: address) == nil) == reachable, "\(text)")
    }

    /// An IPv6 address that carries an IPv4 one is refused when that one is, whatever its own block.
    static let embedded: [(String, String?)] = [
        ("::ffff:127.0.0.1", "loopback"), ("::ffff:7f00:1", "loopback"), ("::ffff:169.254.169.254", "link-local"),
        ("::ffff:10.0.0.1", "private"), ("::ffff:8.8.8.8", nil),
        ("::127.0.0.1", "loopback"), ("::10.1.2.3", "private"), ("::8.8.8.8", nil),
        ("64:ff9b::127.0.0.1", "loopback"), ("64:ff9b::a9fe:a9fe", "link-local"), ("64:ff9b::8.8.8.8", nil),
        ("2002:7f00:1::", "loopback"), ("2002:a9fe:a9fe::1", "link-local"), ("2002:c000:0201::1", "documentation"),
        ("2002:0808:0808::1", nil),
        // Teredo: server 127.0.0.1; or client ~(80ff:fffe) = 127.0.0.1; both public: allowed.
        ("2001:0:7f00:1::1", "loopback"), ("2001:0:808:808::80ff:fffe", "loopback"),
        ("2001:0:808:808::f7f7:f7f7", nil),
        // ISATAP, under a public prefix.
        ("2606:4700::5efe:127.0.0.1", "loopback"), ("2606:4700::200:5efe:a9fe:a9fe", "link-local"),
        ("2606:4700::5efe:8.8.8.8", nil),
    ]

    @Test(arguments: embedded)
    func embeddedIPv4AddressesAreJudgedToo(_ text: String, _ denial: String?) throws {
        let address = try #require(IPAddress(text))
        #expect(AddressPolicy.publicOnly.denial(of: address)?.description == denial, "\(text)")
    }

    @Test func policiesAndNetworks() throws {
        let metadata = try #require(IPAddress("169.254.169.254"))
        let loopback = try #require(IPAddress("127.0.0.1"))
        #expect(AddressPolicy.standard.denial(of: metadata) == .linkLocal)
        #expect(AddressPolicy.standard.denial(of: try #require(IPAddress("::ffff:169.254.169.254"))) == .linkLocal)
        #expect(AddressPolicy.standard.denial(of: loopback) == nil, "a CLI user's own network stays reachable")
        #expect(AddressPolicy.allowAll.denial(of: metadata) == nil && AddressPolicy.allowAll.checksNothing)
        let cluster = try AddressPolicy.publicOnly.allowing(networks: ["127.0.0.2/32", "fd00:1::/64"])
        #expect(cluster.denial(of: try #require(IPAddress("127.0.0.2"))) == nil)
        #expect(cluster.denial(of: try #require(IPAddress("::ffff:127.0.0.2"))) == nil, "the mapped form reaches it")
        #expect(cluster.denial(of: loopback) == .loopback)
        #expect(cluster.denial(of: try #require(IPAddress("fd00:1::5"))) == nil)
        #expect(cluster.denial(of: try #require(IPAddress("fd00:2::5"))) == .uniqueLocal)
        for bad in ["10.0.0.1/8", "10.0.0.0/33", "10.0.0.0/", "10.0.0.0/-1", "10.0.0.0/x", "127.1/32", "fc00::/129"] {
            #expect(throws: AddressPolicyError.invalidNetwork(bad)) {
                try AddressPolicy.publicOnly.allowing(networks: [bad])
            }
        }
        #expect(IPNetwork("0.0.0.0/0")?.contains(loopback) == true && IPNetwork("::/0")?.contains(loopback) == false)
    }

    @Test func onlyStrictLiteralsParseAsAddresses() {
        // What resolvers accept besides (inet_aton's forms) is a name here, resolved and judged
        // as the address the socket would use.
        for name in ["127.1", "2130706433", "0x7f.0.0.1", "0177.0.0.1", "127.0.0.1.", "localhost", "1.2.3.04"] {
            #expect(IPAddress(name) == nil, "\(name)")
        }
        #expect(IPAddress("[::ffff:7f00:1]")?.description == "::ffff:127.0.0.1")
        #expect(IPAddress("2001:DB8::1")?.description == "2001:db8::1")
        #expect(IPAddress("10.1.2.3")?.description == "10.1.2.3")
    }
}
