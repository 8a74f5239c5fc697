import Foundation
import MagpieTestSupport
import Testing

@testable import Magpie

/// A large entry's hit within a second of its row's read skips the index (the file's head is kept
/// in memory), and still sees at once what another process did to the entry's file.
extension DiskCacheTests {
    func large(_ byte: UInt8) -> [UInt8] { [UInt8](repeating: byte, count: 40_000) }

    /// The row alone, changed behind this process's back (here its freshness, moved into the past
    /// by another program), is seen once the head is a second old, and not before: the trade the
    /// heads make, bounded by ``DiskCache/headTrust``.
    @Test func aFileHitWithinASecondOfItsRowsReadSkipsTheIndex() throws {
        let dir = try TemporaryDirectory()
        let clock = ManualClock()
        let cache = try makeCache(dir, clock: clock)
        try cache.store(large(1), forKey: "k")
        #expect(try cache.value(forKey: "k") == large(1))
        try withIndexDatabase(dir.path("cache")) { c in
            try c.execute("UPDATE entries SET fresh = 0")
        }
        clock.advance(by: 0.5)
        #expect(try cache.value(forKey: "k") == large(1), "read from its head, without the index")
        clock.advance(by: 0.6)
        #expect(try cache.value(forKey: "k") == nil, "the head is over a second old: the index decides")
        #expect(try cache.entry(forKey: "k", allowingStale: true)?.payload == large(1), "kept, stale")
        // A row entry has no head: the index is read every time.
        let small = try makeCache(dir, clock: clock, inline: 16 << 10)
        try small.store([7, 7, 7], forKey: "row")
        #expect(try small.value(forKey: "row") == [7, 7, 7])
        try withIndexDatabase(dir.path("cache")) { c in try c.execute("UPDATE entries SET fresh = 0") }
        #expect(try small.value(forKey: "row") == nil)
    }

    /// Two caches on one folder stand for two processes: what the other does to the file (a newer
    /// version, a removal, a renewal that made it stale, a row in its place) is seen by the next
    /// read, however fresh this one's head is.
    @Test func anotherProcessesWriteRemovalOrRenewalIsSeenAtOnce() throws {
        let dir = try TemporaryDirectory()
        let clock = ManualClock()
        let mine = try makeCache(dir, clock: clock, inline: 8 << 10)
        let other = try makeCache(dir, clock: clock, inline: 8 << 10)
        try mine.store(large(1), forKey: "k", metadata: Self.etag)
        #expect(try mine.value(forKey: "k") == large(1))
        try other.store(large(2), forKey: "k", metadata: Self.etag)
        #expect(try mine.value(forKey: "k") == large(2), "a newer version: a new file")
        try other.remove(forKey: "k")
        #expect(try mine.value(forKey: "k") == nil, "removed")
        try other.store(large(3), forKey: "k", metadata: Self.etag)
        #expect(try mine.value(forKey: "k") == large(3))
        let stale = EntryFreshness(freshUntil: clock.now().timeIntervalSinceReferenceDate - 1, lifetime: 0)
        #expect(try other.renew(forKey: "k", freshness: stale, validators: Self.etag))
        #expect(try mine.value(forKey: "k") == nil, "renewed stale: its header says so")
        #expect(try mine.entry(forKey: "k", allowingStale: true)?.payload == large(3))
        try other.store([9, 9], forKey: "k")
        #expect(try mine.value(forKey: "k") == [9, 9], "a row now: the file is gone")
        #expect(mine.statistics().files == 0 && mine.statistics().rows == 1)
    }

    @Test func headsAreBounded() throws {
        let dir = try TemporaryDirectory()
        let cache = try makeCache(dir)
        let payload = [UInt8](repeating: 5, count: 9_000)
        for i in 0..<(DiskCache.headLimit + 200) {
            try cache.store(payload, forKey: "k\(i)")
            #expect(try cache.value(forKey: "k\(i)") == payload)
        }
        let kept = cache.fileHeads.withLock { $0.count }
        #expect(kept > 0 && kept <= DiskCache.headLimit)
    }
}
