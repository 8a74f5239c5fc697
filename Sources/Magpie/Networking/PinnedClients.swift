import AsyncHTTPClient

/// One HTTP client per host name, each held to an address that was resolved once and judged by
/// the ``AddressPolicy``: the client's `dnsOverride` sends its connections to that address (so
/// the client never resolves the name itself), while the `Host` header, TLS SNI and certificate
/// check still use the name. A client's pool holds connections to its one host only.
///
/// A pin lasts `lifetime`; then the name is resolved and judged again, and a new address gets a
/// new client (the old one is shut down once its last request ends). A connection failure ends
/// the pin early and steers the next one to another of the name's addresses.
final class PinnedClients: Sendable {
    struct Lease {
        let client: HTTPClient
        let address: IPAddress
    }

    fileprivate struct Pin {
        var client: HTTPClient
        var address: IPAddress
        var until: ContinuousClock.Instant
        var lastUse: ContinuousClock.Instant
    }

    fileprivate struct State {
        var pins: [String: Pin] = [:]
        /// Requests running on each client, pinned or retired.
        var uses: [ObjectIdentifier: Int] = [:]
        /// Clients replaced by a new pin, shut down when their last request ends.
        var retired: [ObjectIdentifier: HTTPClient] = [:]
        /// The address whose connection failed last, by host: the next pin avoids it if it can.
        var failed: [String: IPAddress] = [:]
        var isShutDown = false
    }

    private let state = Locked(State())
    private let policy: AddressPolicy
    private let resolver: any HostResolver
    private let lifetime: Duration
    private let makeClient: @Sendable (_ host: String, _ address: IPAddress) -> HTTPClient
    /// Hosts pinned at most; the least recently used idle one goes first.
    private let capacity = 256

    init(
        policy: AddressPolicy, resolver: any HostResolver, lifetime: Duration,
        makeClient: @escaping @Sendable (String, IPAddress) -> HTTPClient
    ) {
        self.policy = policy
        self.resolver = resolver
        self.lifetime = lifetime
        self.makeClient = makeClient
    }

    /// A client for `host` whose connections go to an allowed address; call ``release(_:)``
    /// when the request ends. Throws ``ImageDownloadError/addressDenied(host:reason:)`` when any
    /// address the name resolves to is denied.
    func acquire(host: String, port: Int) async throws -> Lease {
        let now = ContinuousClock.now
        if let lease = try state.withLock({ try $0.lease(host, now: now, reusing: nil) }) { return lease }
        // A fully qualified name's trailing dot is dropped, as browsers drop it: `127.0.0.1.` is
        // the address it spells, and `localhost.` is `localhost`.
        let name = host.hasSuffix(".") && host.count > 1 ? String(host.dropLast()) : host
        let addresses = try await resolver.addresses(of: name, port: port)
        guard !addresses.isEmpty else {
            throw ImageDownloadError.connectionFailed("cannot resolve \(host): no address")
        }
        // Every address is judged: picking the allowed one out of a mixed answer is how
        // rebinding attacks hide.
        for address in addresses {
            if let denied = policy.denial(of: address) {
                throw ImageDownloadError.addressDenied(host: host, reason: denied.description)
            }
        }
        let (lease, stale, chosen) = try state.withLock { s -> (Lease?, [HTTPClient], IPAddress) in
            let avoided = s.failed[host]
            let chosen = addresses.first { $0 != avoided } ?? addresses[0]
            if let lease = try s.lease(host, now: now, reusing: chosen) {
                s.pins[host]?.until = now + lifetime
                return (lease, [], chosen)
            }
            return (nil, s.retire(host), chosen)
        }
        for client in stale { Self.shutDown(client) }
        if let lease { return lease }
        let client = makeClient(host, chosen)
        let (result, evicted) = state.withLock { s -> (Lease?, [HTTPClient]) in
            guard !s.isShutDown else { return (nil, [client]) }
            var evicted = s.retire(host)
            s.pins[host] = Pin(client: client, address: chosen, until: now + lifetime, lastUse: now)
            s.uses[ObjectIdentifier(client), default: 0] += 1
            if s.pins.count > capacity { evicted += s.evictIdle(keeping: host) }
            return (Lease(client: client, address: chosen), evicted)
        }
        for client in evicted { Self.shutDown(client) }
        guard let result else { throw ImageDownloadError.shutDown }
        return result
    }

    /// Ends a request on `lease`; `connectionFailed` ends the pin, so the next request resolves
    /// the name again and tries another of its addresses.
    func release(_ lease: Lease, host: String, connectionFailed: Bool) {
        let idle = state.withLock { s -> HTTPClient? in
            let id = ObjectIdentifier(lease.client)
            s.uses[id, default: 1] -= 1
            if connectionFailed, let pin = s.pins[host], pin.client === lease.client {
                s.failed[host] = lease.address
                s.pins[host]?.until = .now
            }
            guard s.uses[id] == 0 else { return nil }
            s.uses[id] = nil
            return s.retired.removeValue(forKey: id)
        }
        if let idle { Self.shutDown(idle) }
    }

    /// Shuts every client down and refuses new pins.
    func shutdown() async throws {
        let all = state.withLock { s -> [HTTPClient] in
            s.isShutDown = true
            defer {
                s.pins = [:]
                s.retired = [:]
            }
            return s.pins.values.map(\.client) + s.retired.values
        }
        for client in all { try await client.shutdown() }
    }

    /// For a deinit that cannot wait: starts every client's shutdown.
    func shutdownNow() {
        let all = state.withLock { s in s.pins.values.map(\.client) + s.retired.values }
        for client in all { client.shutdown { _ in } }
    }

    private static func shutDown(_ client: HTTPClient) {
        client.shutdown { _ in }
    }
}

extension PinnedClients.State {
    /// A lease on the pin for `host` if it is still good (or, past its time, still on
    /// `reusing`, the address just chosen again), counted as a use.
    fileprivate mutating func lease(_ host: String, now: ContinuousClock.Instant, reusing: IPAddress?) throws
        -> PinnedClients.Lease?
    {
        if isShutDown { throw ImageDownloadError.shutDown }
        guard var pin = pins[host], pin.until > now || pin.address == reusing else { return nil }
        pin.lastUse = now
        pins[host] = pin
        uses[ObjectIdentifier(pin.client), default: 0] += 1
        return PinnedClients.Lease(client: pin.client, address: pin.address)
    }

    /// Removes the pin for `host`; returns its client if it can be shut down now (else it is
    /// shut down by the release of its last request).
    fileprivate mutating func retire(_ host: String) -> [HTTPClient] {
        guard let old = pins.removeValue(forKey: host) else { return [] }
        let id = ObjectIdentifier(old.client)
        if uses[id, default: 0] > 0 {
            retired[id] = old.client
            return []
        }
        return [old.client]
    }

    /// Retires the least recently used pin other than `host`'s.
    fileprivate mutating func evictIdle(keeping host: String) -> [HTTPClient] {
        guard let victim = pins.filter({ $0.key != host }).min(by: { $0.value.lastUse < $1.value.lastUse })?.key
        else { return [] }
        return retire(victim)
    }
}
