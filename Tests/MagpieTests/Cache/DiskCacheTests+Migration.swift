import Foundation
import MagpieTestSupport
import Testing

@testable import Magpie

/// A folder an earlier version wrote (entry files only, a size record, its temporary files),
/// taken in without losing an entry; and an index damaged on purpose, made again.
extension DiskCacheTests {
    /// Writes what the version before the index left: every entry a file with the same header,
    /// `.magpie-size`, a dead writer's `.tmp-…`; no index.
    func makeEarlierVersionsFolder(_ dir: TemporaryDirectory, entries: Int) throws -> String {
        let folder = dir.path("cache")
        do {
            let writer = try makeCache(dir, inline: 0)
            for n in 0..<entries { try writer.store(thumbnail(n), forKey: "k\(n)", metadata: .init(etag: "\"\(n)\"")) }
            try writer.store([UInt8](repeating: 9, count: 100_000), forKey: "large")
        }
        for name in CacheIndex.fileNames { unlink(folder + "/" + name) }
        try FileManager.default.removeItem(atPath: folder + "/.magpie-tmp")
        try Data(count: 8).write(to: URL(fileURLWithPath: folder + "/.magpie-size"))
        try Data("half".utf8).write(to: URL(fileURLWithPath: folder + "/.tmp-999999999-7"))
        return folder
    }

    @Test func aFolderOfAnEarlierVersionIsTakenInAndMovedOverAsItIsRead() throws {
        let dir = try TemporaryDirectory()
        let folder = try makeEarlierVersionsFolder(dir, entries: 50)
        let cache = try makeCache(dir, inline: 32 << 10)
        #expect(cache.count == 51 && cache.migratedEntries == 51, "every file indexed on opening")
        #expect(
            cache.openingReport.leftoversRemoved == 1
                && !FileManager.default.fileExists(atPath: folder + "/.tmp-999999999-7"))
        #expect(cache.statistics().files == 51)
        // Read: a small entry becomes a row and its file goes; a large one stays a file.
        for n in 0..<25 {
            #expect(try cache.value(forKey: "k\(n)") == thumbnail(n))
            #expect(!FileManager.default.fileExists(atPath: cache.path(forKey: "k\(n)")))
        }
        #expect(cache.entryInfo(forKey: "k3")?.metadata.etag == "\"3\"")
        #expect(try cache.value(forKey: "large") == [UInt8](repeating: 9, count: 100_000))
        #expect(FileManager.default.fileExists(atPath: cache.path(forKey: "large")))
        #expect(cache.statistics().rows == 25 && cache.statistics().files == 26)
        // A second opening does not walk the folder again, and nothing was lost.
        let again = try makeCache(dir, inline: 32 << 10)
        #expect(again.migratedEntries == 0 && again.count == 51)
        for n in 0..<50 { #expect(try again.value(forKey: "k\(n)") == thumbnail(n), "k\(n)") }
    }

    /// A process of the earlier version still writing beside a new one (a rolling upgrade): its
    /// files have no rows, and are found when read.
    @Test func aFileWithoutARowIsFoundWhenRead() throws {
        let dir = try TemporaryDirectory()
        let cache = try makeCache(dir, inline: 32 << 10)
        let earlier = try TemporaryDirectory()
        let folder = try makeEarlierVersionsFolder(earlier, entries: 3)
        for n in 0..<3 {
            let name = cache.fileName(forKey: "k\(n)")
            try FileManager.default.copyItem(atPath: folder + "/" + name, toPath: dir.path("cache/" + name))
        }
        #expect(cache.count == 0)
        #expect(try cache.value(forKey: "k1") == thumbnail(1))
        #expect(cache.count == 1 && cache.isCached(forKey: "k1"))
    }

    /// Rows, files and an index damaged three ways: the database truncated, a page zeroed, the
    /// file replaced by junk. Nothing wrong is served, nothing crashes, the files come back, and
    /// the cache writes again.
    @Test(arguments: ["truncated", "zeroed page", "junk"]) func aDamagedIndexIsMadeAgain(damage: String) throws {
        let dir = try TemporaryDirectory()
        let folder = dir.path("cache")
        do {
            let cache = try makeCache(dir, inline: 32 << 10)
            for n in 0..<300 { try cache.store(thumbnail(n), forKey: "k\(n)") }
            try cache.store([UInt8](repeating: 9, count: 100_000), forKey: "large")
        }
        let path = folder + "/" + CacheIndex.fileName
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size > 8 * CacheIndex.pageSize)
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        switch damage {
        case "truncated": try handle.truncate(atOffset: UInt64(size / 3))
        case "zeroed page":
            for page in [1, 5, 9] {
                try handle.seek(toOffset: UInt64(page * CacheIndex.pageSize))
                try handle.write(contentsOf: Data(count: CacheIndex.pageSize))
            }
        default:
            try handle.seek(toOffset: 0)
            try handle.write(contentsOf: Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }))
        }
        try handle.close()
        let reopened = try makeCache(dir, inline: 32 << 10)
        var served = 0
        for n in 0..<300 {
            if let value = try reopened.value(forKey: "k\(n)") {
                #expect(value == thumbnail(n), "k\(n) served wrong bytes")
                served += 1
            }
        }
        #expect(try reopened.value(forKey: "large") == [UInt8](repeating: 9, count: 100_000), "a file is never lost")
        try reopened.store([1, 2, 3], forKey: "new")
        #expect(try reopened.value(forKey: "new") == [1, 2, 3])
        #expect(reopened.indexRebuilds >= 1 || served == 300, "damage not seen, and rows lost")
        print("index \(damage): \(served) of 300 rows served, \(reopened.indexRebuilds) rebuilds")
    }
}
