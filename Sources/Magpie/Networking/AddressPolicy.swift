/// Which addresses the HTTP transport may connect to, judged on every address a host name
/// resolves to, at every redirect hop (see ``HTTPDataLoader`` for how the connection is held to
/// the address that was judged).
///
/// A server that fetches URLs strangers give it uses ``publicOnly``, plus ``allowing(networks:)``
/// for its own origins; ``standard``, the default, only keeps every download away from the
/// link-local block, where cloud metadata services hand out credentials and no image lives;
/// ``allowAll`` checks nothing.
public struct AddressPolicy: Sendable, Hashable {
    /// Classes refused.
    public var deniedClasses: Set<AddressClass>
    /// Blocks allowed whatever their class (an in-cluster origin; `127.0.0.2/32` in tests).
    public var allowedNetworks: [IPNetwork]
    /// Ports that may be connected to; `nil`: any.
    public var allowedPorts: Set<Int>?

    public init(deniedClasses: Set<AddressClass>, allowedNetworks: [IPNetwork] = [], allowedPorts: Set<Int>? = nil) {
        self.deniedClasses = deniedClasses
        self.allowedNetworks = allowedNetworks
        self.allowedPorts = allowedPorts
    }

    /// No check at all (a desktop or CLI user fetching from their own network).
    public static let allowAll = AddressPolicy(deniedClasses: [])
    /// The library's default: everything but link-local addresses (`169.254.0.0/16`,
    /// `fe80::/10`, and IPv6 addresses that carry one), where no image lives and cloud metadata
    /// services answer. Loopback and private networks stay reachable, as a CLI user expects.
    public static let standard = AddressPolicy(deniedClasses: [.linkLocal])
    /// Globally reachable unicast only: what a server that fetches strangers' URLs wants.
    public static let publicOnly = AddressPolicy(
        deniedClasses: Set(AddressClass.allCases).subtracting([.publicUnicast]))

    /// This policy with `networks` allowed too. Throws ``AddressPolicyError/invalidNetwork(_:)``
    /// for a block that does not parse.
    public func allowing(networks: [String]) throws(AddressPolicyError) -> AddressPolicy {
        var policy = self
        for text in networks {
            guard let network = IPNetwork(text) else { throw .invalidNetwork(text) }
            policy.allowedNetworks.append(network)
        }
        return policy
    }

    /// This policy with only `ports` reachable.
    public func allowing(ports: Set<Int>) -> AddressPolicy {
        var policy = self
        policy.allowedPorts = ports
        return policy
    }

    /// Whether nothing is ever refused, so the transport need not resolve names itself.
    public var checksNothing: Bool { deniedClasses.isEmpty && allowedPorts == nil }

    /// Why a connection to `address` is refused, or `nil` when it is allowed. An IPv6 address
    /// that carries an IPv4 one is refused when either is (a mapped `::ffff:127.0.0.1` reaches
    /// loopback however its own block is classed); an allowed network admits an address as is.
    public func denial(of address: IPAddress) -> AddressClass? {
        if allowedNetworks.contains(where: { $0.contains(address) }) { return nil }
        for carried in address.embeddedIPv4 {
            if let denied = denial(of: carried) { return denied }
        }
        let kind = AddressClass(address)
        return deniedClasses.contains(kind) ? kind : nil
    }
}

/// A policy that could not be built.
public enum AddressPolicyError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalidNetwork(String)
    public var description: String {
        switch self {
        case .invalidNetwork(let s): return "not a network in CIDR notation: \(s)"
        }
    }
}
