#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A thread-safe, synchronous, strict-LRU memory cache with cost and count limits and expiry
/// (Kingfisher's `MemoryStorage`, minus its reliance on app life-cycle events).
///
/// The limits hold after every `store`: a server that never goes to the background still stays
/// within them. Evicted and expired values are released after the lock is dropped, so a value's
/// `deinit` never runs while other threads wait. An optional background task removes expired
/// entries every `cleanInterval`; it holds the cache weakly and stops when the cache goes away.
public final class MemoryCache<Key: Hashable & Sendable, Value: Sendable & CacheCostCalculable>: Sendable {
    /// Limits and expiry (Kingfisher's fields and defaults).
    public struct Config: Sendable {
        /// Total cost the cache keeps. Default: a quarter of the memory this process may use (the
        /// cgroup v2 `memory.max` where set, else physical memory).
        public var totalCostLimit: Int
        /// Entries the cache keeps. Default: no limit.
        public var countLimit: Int
        /// An entry costing more than this fraction of `totalCostLimit` is not kept (default 10%).
        public var maxEntryCostFraction: Double
        /// Expiry of stored values unless `store` says otherwise. Default 300 seconds.
        public var expiration: StorageExpiration
        /// How often expired entries are swept; `nil` for no background sweeping. Default 120 s.
        public var cleanInterval: Duration?

        /// - Parameters:
        ///   - totalCostLimit: `nil` for the default, a quarter of the memory this process may use
        ///     (the cgroup v2 `memory.max` where set, else physical memory), at least 1 MiB.
        ///   - countLimit: the most entries kept.
        ///   - maxEntryCostFraction: an entry costing more than this fraction of the cost limit is
        ///     not kept.
        ///   - expiration: expiry of stored values unless `store` says otherwise.
        ///   - cleanInterval: how often expired entries are swept; `nil` for no background sweep.
        public init(
            totalCostLimit: Int? = nil, countLimit: Int = .max, maxEntryCostFraction: Double = 0.1,
            expiration: StorageExpiration = .seconds(300), cleanInterval: Duration? = .seconds(120)
        ) {
            self.totalCostLimit = totalCostLimit ?? MemoryCacheDefaults.totalCostLimit
            self.countLimit = countLimit
            self.maxEntryCostFraction = maxEntryCostFraction
            self.expiration = expiration
            self.cleanInterval = cleanInterval
        }
    }

    /// Entries live in parallel arrays indexed by slot; the LRU list is a compact array of
    /// (previous, next) slot pairs, so moving an entry to the front touches few cache lines.
    @usableFromInline
    struct State {
        @usableFromInline var config: Config
        @usableFromInline var index: [Key: Int] = [:]
        @usableFromInline var keys: [Key?] = []
        @usableFromInline var values: [Value?] = []
        @usableFromInline var costs: [Int] = []
        @usableFromInline var expirations: [StorageExpiration] = []
        /// Seconds since the reference date; `.infinity` for values that never expire.
        @usableFromInline var expiresAt: [Double] = []
        /// `links[2 * i]` is the slot used just before `i` (toward the head), `links[2 * i + 1]`
        /// the one after it (toward the tail); -1 ends the list.
        @usableFromInline var links: [Int32] = []
        @usableFromInline var free: [Int] = []
        @usableFromInline var head = -1
        @usableFromInline var tail = -1
        @usableFromInline var totalCost = 0
        @usableFromInline var evictions = 0
        @usableFromInline var expirationCount = 0

        @inlinable init(config: Config) { self.config = config }
    }

    @usableFromInline let state: Locked<State>
    @usableFromInline let clock: any CacheClock
    private let cleaner = Locked<PeriodicSweep?>(nil)

    /// Creates a cache. `clock` is where expiry reads the time (tests inject their own).
    public init(config: Config = Config(), clock: any CacheClock = SystemCacheClock()) {
        self.state = Locked(State(config: config))
        self.clock = clock
        if let interval = config.cleanInterval, interval > .zero {
            let sweep = PeriodicSweep(every: interval, on: self) { $0.removeExpired() }
            cleaner.withLock { $0 = sweep }
        }
    }

    /// The current limits; changing them trims at once.
    public var config: Config {
        get { state.withLock { $0.config } }
        set {
            let evicted = state.withLock { s -> [Value] in
                s.config = newValue
                return Self.enforceLimits(&s)
            }
            withExtendedLifetime(evicted) {}
        }
    }

    /// Entries held (expired ones not yet swept included).
    @inlinable public var count: Int { state.withLock { $0.index.count } }
    /// Sum of the held entries' costs.
    @inlinable public var totalCost: Int { state.withLock { $0.totalCost } }
    /// Entries evicted to keep the limits, and entries dropped because they expired, so far.
    public var statistics: (evictions: Int, expirations: Int) {
        state.withLock { ($0.evictions, $0.expirationCount) }
    }

    /// Stores `value` under `key`, most recently used. Returns `false` when the value is not kept
    /// (it costs more than the per-entry cap, or `expiration` is `.expired`); an older value for
    /// the key is removed then, so it is never served instead.
    @inlinable @discardableResult
    public func store(_ value: Value, forKey key: Key, expiration: StorageExpiration? = nil) -> Bool {
        let now = clock.now()
        let cost = value.cacheCost
        var kept = true
        let released = state.withLock { s -> [Value] in
            let exp = expiration ?? s.config.expiration
            let cap = Double(s.config.totalCostLimit) * s.config.maxEntryCostFraction
            if exp.isExpired || Double(cost) > cap || s.config.countLimit <= 0 {
                kept = false
                if let i = s.index[key] { return [Self.unlink(&s, i)] }
                return []
            }
            let expiry = Self.seconds(exp.expiryDate(from: now))
            if let i = s.index[key] {
                let old = s.values[i]
                s.values[i] = value
                s.totalCost += cost - s.costs[i]
                s.costs[i] = cost
                s.expirations[i] = exp
                s.expiresAt[i] = expiry
                Self.moveToHead(&s, i)
                var out = Self.enforceLimits(&s)
                if let old { out.append(old) }
                kept = s.index[key] != nil
                return out
            }
            let i: Int
            if let slot = s.free.popLast() {
                i = slot
                s.keys[i] = key
                s.values[i] = value
                s.costs[i] = cost
                s.expirations[i] = exp
                s.expiresAt[i] = expiry
            } else {
                i = s.keys.count
                s.keys.append(key)
                s.values.append(value)
                s.costs.append(cost)
                s.expirations.append(exp)
                s.expiresAt.append(expiry)
                s.links.append(-1)
                s.links.append(-1)
            }
            s.links[2 * i] = -1
            s.links[2 * i + 1] = Int32(s.head)
            if s.head >= 0 { s.links[2 * s.head] = Int32(i) }
            s.head = i
            if s.tail < 0 { s.tail = i }
            s.index[key] = i
            s.totalCost += cost
            let out = Self.enforceLimits(&s)
            kept = s.head == i
            return out
        }
        withExtendedLifetime(released) {}
        return kept
    }

    /// The value for `key` if present and not expired; marks it most recently used and extends
    /// its expiration as asked. An expired value is removed and `nil` returned.
    @inlinable public func value(forKey key: Key, extendingExpiration extending: ExpirationExtending = .cacheTime)
        -> Value?
    {
        let now = clock.now()
        var expired: Value?
        let nowSeconds = now.timeIntervalSinceReferenceDate
        let result = state.withLock { s -> Value? in
            guard let i = s.index[key] else { return nil }
            if s.expiresAt[i] <= nowSeconds {
                expired = Self.unlink(&s, i)
                s.expirationCount += 1
                return nil
            }
            // A new expiration becomes the entry's own, for later `.cacheTime` reads.
            if case .expirationTime(let e) = extending { s.expirations[i] = e }
            let lifetime = s.expirations[i]
            s.expiresAt[i] = extending.extendedExpiry(from: s.expiresAt[i], at: now) { lifetime.expiryDate(from: $0) }
            Self.moveToHead(&s, i)
            return s.values[i]
        }
        withExtendedLifetime(expired) {}
        return result
    }

    /// Whether an unexpired value is cached for `key`. Neither extends it nor changes LRU order.
    @inlinable public func isCached(forKey key: Key) -> Bool {
        let now = clock.now()
        let nowSeconds = now.timeIntervalSinceReferenceDate
        return state.withLock { s in
            guard let i = s.index[key] else { return false }
            return s.expiresAt[i] > nowSeconds
        }
    }

    /// Removes the value for `key`; returns whether there was one.
    @inlinable @discardableResult
    public func remove(forKey key: Key) -> Bool {
        let removed = state.withLock { s -> Value? in
            guard let i = s.index[key] else { return nil }
            return Self.unlink(&s, i)
        }
        return removed != nil
    }

    /// Removes everything.
    @inlinable public func removeAll() {
        let old = state.withLock { s -> [Value?] in
            let values = s.values
            s.index.removeAll()
            s.keys.removeAll()
            s.values.removeAll()
            s.costs.removeAll()
            s.expirations.removeAll()
            s.expiresAt.removeAll()
            s.links.removeAll()
            s.free.removeAll()
            s.head = -1
            s.tail = -1
            s.totalCost = 0
            return values
        }
        withExtendedLifetime(old) {}
    }

    /// Removes expired entries; returns how many.
    @inlinable @discardableResult
    public func removeExpired() -> Int {
        let now = clock.now().timeIntervalSinceReferenceDate
        let removed = state.withLock { s -> [Value] in
            var out: [Value] = []
            var i = s.tail
            while i >= 0 {
                let previous = Int(s.links[2 * i])
                if s.expiresAt[i] <= now { out.append(Self.unlink(&s, i)) }
                i = previous
            }
            s.expirationCount += out.count
            return out
        }
        return removed.count
    }

    /// Evicts least recently used entries until the total cost is at most `cost`.
    @inlinable public func trim(toCost cost: Int) {
        let evicted = state.withLock { s -> [Value] in
            var out: [Value] = []
            while s.totalCost > cost, s.tail >= 0 { out.append(Self.unlink(&s, s.tail)) }
            s.evictions += out.count
            return out
        }
        withExtendedLifetime(evicted) {}
    }

}

/// Defaults shared by every `MemoryCache` specialisation.
package enum MemoryCacheDefaults {
    /// A quarter of the memory this process may use.
    package static var totalCostLimit: Int { max(1 << 20, SystemMemory.availableToProcess / 4) }
}
