import Foundation
import MagpieTestSupport
import Testing

@testable import Magpie

/// Removals racing writes: a newer write of a chosen key survives the sweep or trim that chose it.
extension DiskCacheTests {
    /// A sweep or a trim chooses its entries, then deletes their files: a write of a chosen key
    /// in between must survive it (the sweep leaves the newer entry alone).
    @Test func aWriteBetweenChoosingAndDeletingSurvivesSweepsAndTrims() throws {
        let dir = try TemporaryDirectory()
        let clock = ManualClock()
        let cache = try makeCache(dir, clock: clock)
        func writeOnce(_ key: String, _ payload: [UInt8]) {
            let pending = Locked(true)
            cache.removalHook.withLock {
                $0 = {
                    let first = pending.withLock { p -> Bool in
                        defer { p = false }
                        return p
                    }
                    guard first else { return }
                    try? cache.store(payload, forKey: key)
                }
            }
        }

        // Expiry sweep: "old" expired and is chosen; it is written again before its file goes.
        try cache.store([1, 1, 1], forKey: "old", expiration: .seconds(5))
        try cache.store([2], forKey: "stays", expiration: .never)
        clock.advance(by: 10)
        writeOnce("old", [9, 9, 9, 9])
        #expect(cache.removeExpiredValues().isEmpty, "the rewritten entry was not deleted")
        #expect(try cache.value(forKey: "old") == [9, 9, 9, 9])
        #expect(FileManager.default.fileExists(atPath: cache.path(forKey: "old")))

        // Trim: the least recently used entries are chosen; the oldest is written again meanwhile.
        // A second cache on the folder, with a limit the first never had, trims it (so no write's
        // own eviction runs first).
        for i in 0..<20 {
            clock.advance(by: 1)
            try cache.store([UInt8](repeating: UInt8(i), count: 100_000), forKey: "k\(i)")
        }
        let trimming = try makeCache(dir, limit: 2_000_000, clock: clock)
        let fresh = [UInt8](repeating: 77, count: 100_000)
        let pending = Locked(true)
        trimming.removalHook.withLock {
            $0 = {
                guard
                    pending.withLock({ p in
                        defer { p = false }; return p
                    })
                else { return }
                clock.advance(by: 1)
                try? cache.store(fresh, forKey: "k0")
            }
        }
        let removed = trimming.removeSizeExceededValues()
        #expect(!removed.isEmpty && !removed.contains(cache.fileName(forKey: "k0")))
        #expect(try cache.value(forKey: "k0") == fresh, "the write made during the trim is kept")
        #expect(try cache.value(forKey: "k1") == nil, "the next oldest was trimmed")
        #expect(try cache.value(forKey: "k19") != nil)
        #expect(trimming.bytesOnDisk() <= 1_000_000, "\(trimming.statistics())")
        // The index and the files agree.
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path("cache")).filter {
            !$0.hasPrefix(".")
        }
        #expect(files.count == cache.count)
        let sizes = try files.map {
            try FileManager.default.attributesOfItem(atPath: dir.path("cache/\($0)"))[.size] as? Int ?? -1
        }
        #expect(sizes.reduce(0, +) == cache.totalSize())
    }
}
