import Foundation
import MagpieTestSupport
import Testing

@testable import Magpie

/// Small entries as rows of the folder's index (YYCache's inline threshold): where they go, and
/// that a row damaged or planted in the database is never served.
extension DiskCacheTests {
    /// Runs `body` on a connection of its own to the index of `folder` (as another program would).
    func withIndexDatabase(_ folder: String, _ body: (SQLiteConnection) throws -> Void) throws {
        let c = try SQLiteConnection(path: folder + "/" + CacheIndex.fileName)
        try body(c)
    }

    /// The bytes of `key`'s row.
    func rowBytes(_ c: SQLiteConnection, _ key: String) throws -> [UInt8]? {
        try c.row(DiskCache.EntryID(key: key)) { _, data in data.map { [UInt8]($0) } } ?? nil
    }

    func setRowBytes(_ c: SQLiteConnection, _ key: String, _ bytes: [UInt8]) throws {
        let id = DiskCache.EntryID(key: key)
        let s = try c.statement("UPDATE entries SET data = ?1 WHERE id = ?2")
        defer { s.reset() }
        try bytes.withSQLiteBytes { (raw) throws(SQLiteError) in
            s.bind(1, blob: raw)
            s.bind(2, id.rowID)
            _ = try s.step()
        }
    }

    @Test func entriesUpToTheThresholdAreRowsAndLargerOnesFiles() throws {
        let dir = try TemporaryDirectory()
        let cache = try makeCache(dir, inline: 16 << 10)
        let small = [UInt8](repeating: 3, count: 2_000)
        let large = [UInt8](repeating: 4, count: 40_000)
        let meta = DiskEntryMetadata(etag: "\"s\"", contentType: "image/jpeg")
        try cache.store(small, forKey: "small", metadata: meta)
        try cache.store(large, forKey: "large")
        #expect(!FileManager.default.fileExists(atPath: cache.path(forKey: "small")))
        #expect(FileManager.default.fileExists(atPath: cache.path(forKey: "large")))
        #expect(try cache.value(forKey: "small") == small && (try cache.value(forKey: "large")) == large)
        #expect(cache.entryInfo(forKey: "small")?.metadata == meta && cache.entryInfo(forKey: "small")?.size == 2_000)
        #expect(cache.isCached(forKey: "small") && cache.isCachedFromIndex(forKey: "small"))
        let stats = cache.statistics()
        #expect(stats.entries == 2 && stats.rows == 1 && stats.files == 1)
        #expect(stats.bytes == cache.totalSize() && stats.bytes > 42_000)
        // A row that grows past the threshold becomes a file, and a file that shrinks a row.
        try cache.store(large, forKey: "small")
        try cache.store(small, forKey: "large")
        #expect(FileManager.default.fileExists(atPath: cache.path(forKey: "small")))
        #expect(!FileManager.default.fileExists(atPath: cache.path(forKey: "large")))
        #expect(try cache.value(forKey: "small") == large && (try cache.value(forKey: "large")) == small)
        #expect(cache.statistics().rows == 1 && cache.statistics().files == 1)
        try cache.remove(forKey: "small")
        try cache.remove(forKey: "large")
        #expect(cache.count == 0 && !FileManager.default.fileExists(atPath: cache.path(forKey: "small")))
    }

    /// YYKVStorage keeps each row's bytes as they were written and trusts them; here a row's bytes
    /// carry the entry's header (its key) and a CRC of the payload, checked on every read.
    @Test func aDamagedRowIsNeverServedAndIsRemoved() throws {
        let dir = try TemporaryDirectory()
        let cache = try makeCache(dir, inline: 16 << 10)
        for key in ["flipped", "short", "empty", "good"] {
            try cache.store([UInt8](repeating: 6, count: 3_000), forKey: key)
        }
        try withIndexDatabase(dir.path("cache")) { c in
            var flipped = try #require(try rowBytes(c, "flipped"))
            flipped[flipped.count - 10] ^= 0xFF  // in the payload: the CRC fails
            try setRowBytes(c, "flipped", flipped)
            let short = try #require(try rowBytes(c, "short"))
            try setRowBytes(c, "short", Array(short.prefix(1_000)))  // torn: the length fails
            try setRowBytes(c, "empty", [])
        }
        for key in ["flipped", "short", "empty"] {
            #expect(try cache.value(forKey: key) == nil, "\(key) was served")
            #expect(cache.entryInfo(forKey: key) == nil)
        }
        #expect(cache.invalidEntriesRemoved == 3 && cache.count == 1)
        #expect(try cache.value(forKey: "good") == [UInt8](repeating: 6, count: 3_000))
    }

    /// A row planted under another key's number (another program writing the database, or a
    /// digest collision) holds its own key in its header: a miss, never the other entry's bytes.
    @Test func aForeignRowIsNeverServed() throws {
        let dir = try TemporaryDirectory()
        let cache = try makeCache(dir, inline: 16 << 10)
        try cache.store([UInt8](repeating: 1, count: 500), forKey: "https://a.example/secret.jpg")
        try cache.store([UInt8](repeating: 2, count: 500), forKey: "https://b.example/public.jpg")
        try withIndexDatabase(dir.path("cache")) { c in
            let secret = try #require(try rowBytes(c, "https://a.example/secret.jpg"))
            try setRowBytes(c, "https://b.example/public.jpg", secret)
            // And a row of bytes that are no entry at all, under a third key's number.
            let id = DiskCache.EntryID(key: "https://c.example/planted.jpg")
            try c.execute(
                """
                INSERT INTO entries(id, lo, key, file, size, disk, expires, access, fresh, inode, header, data)
                VALUES (\(id.rowID), \(id.rowLo), NULL, 0, 12, 100, 1e300, 0, 1e300, 7, 0, X'4D475045000000000000FFFF')
                """)
        }
        #expect(try cache.value(forKey: "https://b.example/public.jpg") == nil)
        #expect(try cache.value(forKey: "https://c.example/planted.jpg") == nil)
        #expect(cache.invalidEntriesRemoved == 2)
        #expect(try cache.value(forKey: "https://a.example/secret.jpg") == [UInt8](repeating: 1, count: 500))
    }

    /// A stale row is renewed in place (its header's freshness rewritten in the row), as a file is.
    @Test func aRowIsRenewedAfterARevalidation() throws {
        let dir = try TemporaryDirectory()
        let clock = ManualClock()
        let cache = try makeCache(dir, clock: clock, inline: 16 << 10)
        let meta = DiskEntryMetadata(etag: "\"v1\"")
        try cache.store([5, 5], forKey: "k", metadata: meta, freshness: freshness(clock, 10))
        clock.advance(by: 20)
        #expect(
            try cache.value(forKey: "k") == nil && (try cache.entry(forKey: "k", allowingStale: true))?.isStale == true)
        #expect(try cache.renew(forKey: "k", freshness: freshness(clock, 30), validators: meta))
        #expect(try cache.value(forKey: "k") == [5, 5])
        // A fresh process reads the renewed freshness from the row's own header.
        let reopened = try makeCache(dir, clock: clock, inline: 16 << 10)
        let hit = try #require(try reopened.entry(forKey: "k"))
        #expect(!hit.isStale && hit.freshness.lifetime == 30)
        #expect(try !cache.renew(forKey: "k", freshness: freshness(clock, 30), validators: .init(etag: "\"v2\"")))
    }
}

extension DiskCacheTests {
    /// A cache closed gives its index's descriptors back (a server opening caches per tenant, or
    /// a benchmark opening hundreds, must not run out).
    @Test func closingACacheClosesItsIndex() throws {
        let dir = try TemporaryDirectory()
        func descriptors() -> Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0 }
        let before = descriptors()
        for n in 0..<200 {
            let cache = try makeCache(dir, inline: 16 << 10)
            try cache.store([UInt8(n % 256)], forKey: "k\(n)")
            #expect(try cache.value(forKey: "k\(n)") == [UInt8(n % 256)])
        }
        #expect(descriptors() - before < 20, "\(descriptors() - before) descriptors left open")
    }
}
