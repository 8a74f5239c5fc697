import Foundation
import MagpieTestSupport
import Synchronization
import Testing

@testable import Magpie
@testable import MagpieImage

/// Records whether its cache's lock was held when it was released.
final class Tracked: CacheCostCalculable, Sendable {
    let cacheCost = 10
    let onRelease: @Sendable () -> Void
    init(onRelease: @escaping @Sendable () -> Void) { self.onRelease = onRelease }
    deinit { onRelease() }
}

@Suite struct MemoryCacheTests {
    func makeCache(
        cost: Int = 1000, count: Int = .max, entryFraction: Double = 0.1, expiration: StorageExpiration = .seconds(300)
    ) -> (MemoryCache<String, Blob>, ManualClock) {
        let clock = ManualClock()
        let config = MemoryCache<String, Blob>.Config(
            totalCostLimit: cost, countLimit: count, maxEntryCostFraction: entryFraction, expiration: expiration,
            cleanInterval: nil)
        return (MemoryCache(config: config, clock: clock), clock)
    }

    @Test func leastRecentlyUsedIsEvictedFirst() {
        let (cache, _) = makeCache(cost: 300, entryFraction: 1)
        for i in 0..<3 { cache.store(Blob(id: i, cacheCost: 100), forKey: "k\(i)") }
        #expect(cache.value(forKey: "k0") != nil)  // k0 becomes most recent
        cache.store(Blob(id: 3, cacheCost: 100), forKey: "k3")
        #expect(cache.keysByRecency == ["k3", "k0", "k2"])
        #expect(cache.value(forKey: "k1") == nil)
        #expect(cache.totalCost == 300 && cache.count == 3)
        #expect(cache.statistics.evictions == 1)
    }

    @Test func limitsHoldAfterEveryStore() {
        let (cache, _) = makeCache(cost: 1000, count: 5, entryFraction: 1)
        for i in 0..<200 {
            cache.store(Blob(id: i, cacheCost: (i * 37) % 90 + 1), forKey: "k\(i % 17)")
            #expect(cache.totalCost <= 1000 && cache.count <= 5)
        }
        cache.config.totalCostLimit = 50
        #expect(cache.totalCost <= 50)
    }

    @Test func entriesOverTheCapAreNotKeptAndDropTheOldValue() {
        let (cache, _) = makeCache(cost: 1000)
        #expect(cache.store(Blob(id: 1, cacheCost: 100), forKey: "a"))
        #expect(!cache.store(Blob(id: 2, cacheCost: 101), forKey: "a"))
        #expect(cache.value(forKey: "a") == nil, "the stale value must not be served")
        #expect(!cache.store(Blob(id: 3, cacheCost: 5), forKey: "b", expiration: .expired))
    }

    @Test func expiredEntriesAreNotReturned() {
        let (cache, clock) = makeCache(expiration: .seconds(10))
        cache.store(Blob(id: 1, cacheCost: 1), forKey: "a")
        cache.store(Blob(id: 2, cacheCost: 1), forKey: "b", expiration: .never)
        cache.store(Blob(id: 3, cacheCost: 1), forKey: "c", expiration: .date(clock.now().addingTimeInterval(5)))
        clock.advance(by: 9)
        #expect(cache.isCached(forKey: "a") && cache.isCached(forKey: "c") == false)
        clock.advance(by: 2)
        #expect(!cache.isCached(forKey: "a"))
        #expect(cache.value(forKey: "a") == nil)
        #expect(cache.value(forKey: "b")?.id == 2)
        #expect(cache.removeExpired() == 1)  // "c"
        #expect(cache.count == 1)
    }

    @Test func extendingModes() {
        let (cache, clock) = makeCache(expiration: .seconds(10))
        for key in ["none", "cache", "new"] { cache.store(Blob(id: 0, cacheCost: 1), forKey: key) }
        clock.advance(by: 8)
        _ = cache.value(forKey: "none", extendingExpiration: .none)
        _ = cache.value(forKey: "cache", extendingExpiration: .cacheTime)
        _ = cache.value(forKey: "new", extendingExpiration: .expirationTime(.days(1)))
        clock.advance(by: 8)  // 16 s after storing, 8 s after reading
        #expect(!cache.isCached(forKey: "none"))
        #expect(cache.isCached(forKey: "cache"))
        clock.advance(by: 5)  // 13 s after reading: the 10-s expiration has passed again
        #expect(!cache.isCached(forKey: "cache"))
        clock.advance(by: 80_000)
        #expect(cache.isCached(forKey: "new"))
        clock.advance(by: 7_000)
        #expect(!cache.isCached(forKey: "new"))
    }

    @Test func isCachedNeitherExtendsNorReorders() {
        let (cache, clock) = makeCache(expiration: .seconds(10))
        cache.store(Blob(id: 0, cacheCost: 1), forKey: "a")
        cache.store(Blob(id: 1, cacheCost: 1), forKey: "b")
        clock.advance(by: 9)
        #expect(cache.isCached(forKey: "a"))
        #expect(cache.keysByRecency == ["b", "a"])
        clock.advance(by: 2)
        #expect(!cache.isCached(forKey: "a"))
    }

    @Test func removeTrimAndRemoveAll() {
        let (cache, _) = makeCache(cost: 10_000, entryFraction: 1)
        for i in 0..<10 { cache.store(Blob(id: i, cacheCost: 100), forKey: "k\(i)") }
        #expect(cache.remove(forKey: "k9") && !cache.remove(forKey: "k9"))
        cache.trim(toCost: 250)
        #expect(cache.totalCost == 200 && cache.keysByRecency == ["k8", "k7"])
        cache.removeAll()
        #expect(cache.count == 0 && cache.totalCost == 0 && cache.keysByRecency.isEmpty)
        cache.store(Blob(id: 1, cacheCost: 1), forKey: "again")
        #expect(cache.value(forKey: "again")?.id == 1)
    }

    @Test func evictedValuesAreReleasedOutsideTheLock() {
        let cache = MemoryCache<String, Tracked>(
            config: .init(totalCostLimit: 100, maxEntryCostFraction: 1, cleanInterval: nil))
        let heldDuringRelease = Mutex<[Bool]>([])
        for i in 0..<30 {
            cache.store(
                Tracked { [weak cache] in heldDuringRelease.withLock { $0.append(cache?.isLockHeld ?? false) } },
                forKey: "k\(i % 12)")
        }
        cache.trim(toCost: 0)
        let records = heldDuringRelease.withLock { $0 }
        #expect(records.count == 30)
        #expect(records.allSatisfy { !$0 })
    }

    @Test func theCleanerDoesNotKeepTheCacheAlive() {
        weak var weakCache: MemoryCache<String, Blob>?
        do {
            let cache = MemoryCache<String, Blob>(config: .init(cleanInterval: .seconds(3600)))
            cache.store(Blob(id: 1, cacheCost: 1), forKey: "a")
            weakCache = cache
            #expect(weakCache != nil)
        }
        #expect(weakCache == nil)
    }

    @Test func defaultLimitIsAQuarterOfAvailableMemory() {
        #expect(MemoryCacheDefaults.totalCostLimit == SystemMemory.availableToProcess / 4)
        #expect(SystemMemory.availableToProcess <= SystemMemory.physicalMemory)
    }

    @Test func cgroupLimitIsReadFromTheProcessCgroup() throws {
        let dir = try TemporaryDirectory()
        try FileManager.default.createDirectory(
            atPath: dir.path("sys/app.slice/web"), withIntermediateDirectories: true)
        try "0::/app.slice/web\n".write(toFile: dir.path("cgroup"), atomically: true, encoding: .utf8)
        try "max\n".write(toFile: dir.path("sys/app.slice/web/memory.max"), atomically: true, encoding: .utf8)
        try "536870912\n".write(toFile: dir.path("sys/app.slice/memory.max"), atomically: true, encoding: .utf8)
        #expect(SystemMemory.cgroupLimit(procSelfCgroup: dir.path("cgroup"), root: dir.path("sys")) == 536_870_912)
        try "0::/\n".write(toFile: dir.path("cgroup"), atomically: true, encoding: .utf8)
        #expect(SystemMemory.cgroupLimit(procSelfCgroup: dir.path("cgroup"), root: dir.path("sys")) == nil)
    }
}
