import Synchronization

extension ImageService {
    /// ``plan(_:)`` through the memo: a target asked before (with the same answer to `Accept`
    /// where that matters) skips parsing, the signature check and building the processor. Only
    /// the time-dependent part, `exp`, is checked again. Refused requests are not remembered.
    /// - Parameter thumbor: the target is thumbor's (``isThumbor(_:)``, decided on the path as
    ///   sent): its plans are remembered apart from imgproxy's (whose targets are unprefixed).
    func memoizedPlan(_ request: ServiceRequest, thumbor: Bool = false) throws(ServiceError) -> Plan {
        let key = PlanMemo.Key(
            target: thumbor ? "\u{1}" + request.target : request.target,
            features: ClientFeatures(request, configuration))
        if var plan = plans.plan(for: key) {
            if let expires = plan.expires {
                let left = Double(expires) - now()
                guard left > 0 else { throw .expired }
                plan.maxAge = min(configuration.ttl, Int(left))
            }
            return plan
        }
        let plan = try thumbor ? thumborPlan(request, configuration.thumbor ?? ThumborSettings()) : self.plan(request)
        plans.remember(plan, for: key)
        return plan
    }
}

/// Plans of targets asked lately: two generations of at most `capacity` entries each; a hit in
/// the older one moves to the newer, and when the newer fills, the older is dropped. A target
/// over 1 KiB is not remembered, so the memo holds a few MiB at most whatever clients send.
/// A plan is remembered the second time its target is parsed (a ``Doorkeeper`` of 32 KiB says
/// which were seen): a plan takes about 2 KB, and in cold traffic, where nearly every target is
/// new, remembering each filled both generations with plans never asked again (8.7 MB of a
/// 19 MB heap peak in the outside benchmark's cold workload, measured with heaptrack).
/// Nothing in a plan depends on anything but the target, the configuration and (with
/// `--auto-*`, `--enforce-*` or client hints) what the client's headers say (``ClientFeatures``),
/// so a remembered plan is the one parsing would give.
final class PlanMemo: Sendable {
    struct Key: Hashable, Sendable {
        var target: String
        /// What the client's headers change (``ClientFeatures``: the formats `Accept` takes that
        /// the server negotiates, and the client hints).
        var features: ClientFeatures
    }

    static let longestTarget = 1024
    let capacity: Int
    private struct State {
        var newer: [Key: ImageService.Plan] = [:]
        var older: [Key: ImageService.Plan] = [:]
    }
    private let state = Mutex(State())
    private let seen = Doorkeeper(bits: 1 << 18)

    init(capacity: Int = 2048) { self.capacity = max(1, capacity) }

    func plan(for key: Key) -> ImageService.Plan? {
        guard key.target.utf8.count <= Self.longestTarget else { return nil }
        return state.withLock { s in
            if let plan = s.newer[key] { return plan }
            guard let plan = s.older.removeValue(forKey: key) else { return nil }
            Self.insert(plan, key, &s, capacity)
            return plan
        }
    }

    /// Remembers `plan` if its target was parsed before (see above).
    func remember(_ plan: ImageService.Plan, for key: Key) {
        guard key.target.utf8.count <= Self.longestTarget, seen.admits(key.target) else { return }
        state.withLock { Self.insert(plan, key, &$0, capacity) }
    }

    /// Plans remembered now.
    var count: Int { state.withLock { $0.newer.count + $0.older.count } }

    private static func insert(_ plan: ImageService.Plan, _ key: Key, _ s: inout State, _ capacity: Int) {
        if s.newer.count >= capacity {
            s.older = s.newer
            s.newer = [:]
        }
        s.newer[key] = plan
    }
}
