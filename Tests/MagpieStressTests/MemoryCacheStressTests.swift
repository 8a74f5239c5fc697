import Foundation
import MagpieTestSupport
import Synchronization
import Testing

@testable import Magpie

/// Many tasks reading, writing and removing the same keys; CI also runs it under ThreadSanitizer.
@Suite struct MemoryCacheStressTests {
    @Test func concurrentReadersWritersAndRemoversKeepTheInvariants() async {
        let cache = MemoryCache<String, Blob>(
            config: .init(totalCostLimit: 5_000, countLimit: 64, cleanInterval: .milliseconds(1)))
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for i in 0..<4_000 {
                        let key = "k\((i * 7 + worker) % 97)"
                        switch (i + worker) % 5 {
                        case 0, 1: cache.store(Blob(id: i, cacheCost: i % 300 + 1), forKey: key)
                        case 2: _ = cache.value(forKey: key)
                        case 3: _ = cache.isCached(forKey: key)
                        default: cache.remove(forKey: key)
                        }
                    }
                }
            }
        }
        #expect(cache.totalCost <= 5_000 && cache.count <= 64)
        #expect(cache.keysByRecency.count == cache.count)
        #expect(Set(cache.keysByRecency).count == cache.count)
    }
}
