#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The LRU list under the lock: eviction, moving to the head, unlinking; and what tests inspect.
extension MemoryCache {
    /// Keys from most to least recently used (for tests).
    var keysByRecency: [Key] {
        state.withLock { s in
            var keys: [Key] = []
            var i = s.head
            while i >= 0 {
                keys.append(s.keys[i]!)
                i = Int(s.links[2 * i + 1])
            }
            return keys
        }
    }

    @inlinable static func enforceLimits(_ s: inout State) -> [Value] {
        var out: [Value] = []
        while (s.totalCost > s.config.totalCostLimit || s.index.count > s.config.countLimit) && s.tail >= 0 {
            out.append(unlink(&s, s.tail))
        }
        s.evictions += out.count
        return out
    }

    @inlinable static func seconds(_ date: Date?) -> Double {
        date?.timeIntervalSinceReferenceDate ?? .infinity
    }

    @inlinable static func moveToHead(_ s: inout State, _ i: Int) {
        guard s.head != i else { return }
        let p = Int(s.links[2 * i])
        let n = Int(s.links[2 * i + 1])
        if p >= 0 { s.links[2 * p + 1] = Int32(n) }
        if n >= 0 { s.links[2 * n] = Int32(p) } else { s.tail = p }
        s.links[2 * i] = -1
        s.links[2 * i + 1] = Int32(s.head)
        s.links[2 * s.head] = Int32(i)
        s.head = i
    }

    /// Removes slot `i` from the list and the index; returns its value for release outside the lock.
    @inlinable static func unlink(_ s: inout State, _ i: Int) -> Value {
        let p = Int(s.links[2 * i])
        let n = Int(s.links[2 * i + 1])
        if p >= 0 { s.links[2 * p + 1] = Int32(n) } else { s.head = n }
        if n >= 0 { s.links[2 * n] = Int32(p) } else { s.tail = p }
        if let key = s.keys[i] { s.index.removeValue(forKey: key) }
        s.totalCost -= s.costs[i]
        s.costs[i] = 0
        s.keys[i] = nil
        let value = s.values[i]!
        s.values[i] = nil
        s.free.append(i)
        return value
    }

    /// Whether another thread holds the cache's lock right now (tests use it to prove values are
    /// released outside the lock).
    var isLockHeld: Bool { state.withLockIfAvailable { _ in false } ?? true }
}
