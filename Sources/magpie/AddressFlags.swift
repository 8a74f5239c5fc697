import ArgumentParser
import Magpie

/// Where downloads may connect: the address policy from the command line.
struct AddressFlags: ParsableArguments {
    @Flag(
        name: .long,
        help: """
            Connect only to public addresses: refuse loopback, private (RFC 1918), carrier-grade NAT, \
            unique-local, link-local and the other special-purpose blocks, at every redirect hop, \
            whatever form the URL writes them in. Without it only link-local addresses (cloud \
            metadata) are refused.
            """)
    var denyPrivate = false

    @Option(
        name: .customLong("allow-network"),
        help: ArgumentHelp(
            "A network in CIDR notation downloads may reach whatever the policy says (repeatable).",
            valueName: "CIDR"))
    var allowedNetworks: [String] = []

    func validate() throws {
        _ = try policy()
    }

    func policy() throws -> AddressPolicy {
        do {
            return try (denyPrivate ? AddressPolicy.publicOnly : .standard).allowing(networks: allowedNetworks)
        } catch {
            throw ValidationError("--allow-network: \(error)")
        }
    }
}
