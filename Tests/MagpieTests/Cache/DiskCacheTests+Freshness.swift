import Foundation
import MagpieTestSupport
import Testing

@testable import Magpie

/// The origin's freshness on disk: kept past it with validators (stale, for a revalidation),
/// never without; renewed in place; reads never stretch it; version-1 entries still read.
extension DiskCacheTests {
    static let etag = DiskEntryMetadata(etag: "\"e1\"")

    func freshness(_ clock: ManualClock, _ seconds: UInt32, swr: UInt32 = 0) -> EntryFreshness {
        EntryFreshness(
            freshUntil: clock.now().timeIntervalSinceReferenceDate + Double(seconds), lifetime: seconds,
            staleWhileRevalidate: swr)
    }

    @Test func staleEntriesWithValidatorsStayForARevalidation() throws {
        let dir = try TemporaryDirectory()
        let clock = ManualClock()
        let cache = try makeCache(dir, clock: clock)
        try cache.store([1, 2, 3], forKey: "with", metadata: Self.etag, freshness: freshness(clock, 60, swr: 30))
        try cache.store([4, 5, 6], forKey: "without", freshness: freshness(clock, 60))
        clock.advance(by: 50)
        #expect(try cache.value(forKey: "with") == [1, 2, 3], "a read while fresh (restarting the expiry)")
        clock.advance(by: 11)
        #expect(try cache.value(forKey: "with") == nil && !cache.isCached(forKey: "with"), "stale: not served")
        let stale = try #require(try cache.entry(forKey: "with", allowingStale: true))
        #expect(stale.isStale && stale.payload == [1, 2, 3] && stale.freshness.staleWhileRevalidate == 30)
        #expect(try cache.value(forKey: "without") == nil && cache.entryInfo(forKey: "without") == nil, "removed")
        #expect(try cache.entry(forKey: "without", allowingStale: true) == nil)
        // A 304: renewed in place with a new freshness, from the file on reopening too.
        #expect(try cache.renew(forKey: "with", freshness: freshness(clock, 120), validators: Self.etag))
        #expect(try cache.value(forKey: "with") == [1, 2, 3])
        let reopened = try makeCache(dir, clock: clock)
        clock.advance(by: 119)
        #expect(reopened.isCached(forKey: "with") && reopened.entryInfo(forKey: "with")?.freshness.lifetime == 120)
        clock.advance(by: 2)
        #expect(!reopened.isCached(forKey: "with") && reopened.entryInfo(forKey: "with") != nil)
        // A renewal for other validators (a newer version was stored meanwhile) leaves it alone.
        #expect(try !reopened.renew(forKey: "with", freshness: freshness(clock, 60), validators: .init(etag: "\"e0\"")))
        #expect(try !reopened.renew(forKey: "absent", freshness: freshness(clock, 60)))
    }

    @Test func aStaleOnArrivalResponseWithoutValidatorsIsNotWritten() throws {
        let dir = try TemporaryDirectory()
        let clock = ManualClock()
        let cache = try makeCache(dir, clock: clock)
        try cache.store([1], forKey: "k", freshness: freshness(clock, 0))
        #expect(cache.count == 0 && cache.entryInfo(forKey: "k") == nil)
        try cache.store([1], forKey: "k", metadata: Self.etag, freshness: freshness(clock, 0))
        #expect(cache.count == 1 && !cache.isCached(forKey: "k"), "kept, stale at once (no-cache)")
    }

    @Test func versionOneEntriesStillRead() throws {
        let dir = try TemporaryDirectory()
        let clock = ManualClock()
        let cache = try makeCache(dir, clock: clock)
        // A version-1 header, laid out by hand: 60 fixed bytes, then the key and the ETag.
        let key = "https://example.com/old.jpg"
        let etag = "\"old\""
        let payload: [UInt8] = [7, 7, 7]
        let now = clock.now().timeIntervalSinceReferenceDate
        var h: [UInt8] = Array("MGPE".utf8)
        func put<T: FixedWidthInteger>(_ v: T) { withUnsafeBytes(of: v.littleEndian) { h += $0 } }
        put(UInt16(1))
        put(UInt16(60 + key.utf8.count + etag.utf8.count))
        put(UInt64(payload.count))
        put(Digest.crc32c(payload))
        put(UInt32(0))
        for t in [now, now + 3600, now] { put(t.bitPattern) }
        put(UInt32(key.utf8.count))
        put(UInt16(etag.utf8.count))
        put(UInt16(0))
        put(UInt16(0))
        put(UInt16(0))
        h += Array(key.utf8) + Array(etag.utf8)
        try Data(h + payload).write(to: URL(fileURLWithPath: cache.path(forKey: key)))
        let reopened = try makeCache(dir, clock: clock)
        #expect(try reopened.value(forKey: key) == payload)
        let info = try #require(reopened.entryInfo(forKey: key))
        #expect(info.metadata.etag == etag && info.freshness == .unlimited)
        // Renewing one restarts its expiry; it has no room for a freshness, and keeps its own.
        clock.advance(by: 3000)
        #expect(try reopened.renew(forKey: key, freshness: freshness(clock, 60)))
        clock.advance(by: 3000)
        #expect(try reopened.value(forKey: key) == payload)
    }

    /// Every directive the freshness keeps comes back from the file: `private` too, which a
    /// service passes on; `no-store` is never written, so it never comes back.
    @Test func theDirectivesComeBackFromTheFile() throws {
        let dir = try TemporaryDirectory()
        let clock = ManualClock()
        var stated = freshness(clock, 60)
        stated.immutable = true
        stated.mustRevalidate = true
        stated.isPrivate = true
        stated.noStore = true
        try makeCache(dir, clock: clock).store([1], forKey: "k", metadata: Self.etag, freshness: stated)
        let read = try #require(makeCache(dir, clock: clock).entryInfo(forKey: "k")?.freshness)
        #expect(read.immutable && read.mustRevalidate && read.isPrivate && !read.noStore && !read.noCache)
        var plain = freshness(clock, 60)
        plain.noCache = true
        try makeCache(dir, clock: clock).store([1], forKey: "p", metadata: Self.etag, freshness: plain)
        let other = try #require(makeCache(dir, clock: clock).entryInfo(forKey: "p")?.freshness)
        #expect(!other.isPrivate && other.noCache && !other.immutable)
    }
}
