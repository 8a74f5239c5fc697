import Foundation
import MagpieTestSupport
import Testing

@testable import Magpie

@Suite struct DiskCacheTests {
    /// A cache in `dir`/cache. `inline` 0 (the default here) keeps every entry a file, as the tests
    /// of files want; the tests of rows give the threshold.
    func makeCache(
        _ dir: TemporaryDirectory, limit: Int = 0, clock: ManualClock = ManualClock(), ext: String? = nil,
        inline: Int = 0
    ) throws -> DiskCache {
        try DiskCache(
            config: .init(
                directory: dir.path("cache"), sizeLimit: limit, pathExtension: ext, sweepInterval: nil,
                freeSpaceLimit: 0, inlineThreshold: inline),
            clock: clock)
    }

    @Test func storesReadsAndNamesEntriesByMD5() throws {
        let dir = try TemporaryDirectory()
        let cache = try makeCache(dir, ext: "png")
        let meta = DiskEntryMetadata(
            etag: "\"abc\"", lastModified: "Sun, 22 Nov 2026 02:00:00 GMT", contentType: "image/png")
        try cache.store([1, 2, 3, 4], forKey: "https://example.com/a.png", metadata: meta)
        #expect(try cache.value(forKey: "https://example.com/a.png") == [1, 2, 3, 4])
        #expect(
            cache.fileName(forKey: "https://example.com/a.png") == CacheKeys.md5Hex("https://example.com/a.png")
                + ".png"
        )
        #expect(FileManager.default.fileExists(atPath: cache.path(forKey: "https://example.com/a.png")))
        let info = try #require(cache.entryInfo(forKey: "https://example.com/a.png"))
        #expect(info.key == "https://example.com/a.png" && info.size == 4 && info.metadata == meta)
        #expect(cache.isCached(forKey: "https://example.com/a.png") && !cache.isCached(forKey: "other"))
        #expect(try cache.value(forKey: "other") == nil)
        try cache.store([9], forKey: "https://example.com/a.png")
        #expect(try cache.value(forKey: "https://example.com/a.png") == [9])
        #expect(cache.count == 1)
    }

    @Test func metadataAndAccessOrderSurviveReopening() throws {
        let dir = try TemporaryDirectory()
        let clock = ManualClock()
        do {
            let cache = try makeCache(dir, clock: clock)
            for i in 0..<5 {
                try cache.store(
                    [UInt8](repeating: UInt8(i), count: 1000), forKey: "k\(i)", metadata: .init(etag: "e\(i)"))
                clock.advance(by: 61)  // the order persists at one-minute resolution
            }
            _ = try cache.value(forKey: "k0")  // k0 becomes the most recent
        }
        // Four entries over a count limit of two: a trim keeps half of it, the most recent.
        let reopened = try DiskCache(
            config: .init(directory: dir.path("cache"), sizeLimit: 0, sweepInterval: nil, countLimit: 2), clock: clock)
        #expect(reopened.count == 5 && reopened.openingReport.invalidRemoved == 0)
        #expect(reopened.entryInfo(forKey: "k3")?.metadata.etag == "e3")
        let removed = reopened.removeSizeExceededValues()
        #expect(Set(removed) == Set(["k1", "k2", "k3", "k4"].map { reopened.fileName(forKey: $0) }))
        #expect(try reopened.value(forKey: "k0") != nil)
    }

    @Test func sizeLimitHoldsAtEveryWriteAndTrimsToHalf() throws {
        let dir = try TemporaryDirectory()
        let clock = ManualClock()
        let limit = 4_000_000
        let cache = try makeCache(dir, limit: limit, clock: clock)
        var largestEntry = 0
        for i in 0..<40 {
            let size = 200_000 + (i * 39_893) % 240_000
            try cache.store([UInt8](repeating: 1, count: size), forKey: "k\(i)")
            largestEntry = max(largestEntry, size + 4096)
            #expect(cache.bytesOnDisk() <= limit + largestEntry)
            // What the folder takes: entry files' blocks, the index and its log.
            var onDisk = 0
            for name in try FileManager.default.contentsOfDirectory(atPath: dir.path("cache"))
            where !name.hasSuffix("-shm") {
                var st = stat()
                if lstat(dir.path("cache/\(name)"), &st) == 0, (st.st_mode & S_IFMT) == S_IFREG {
                    onDisk += Int(st.st_blocks) * 512
                }
            }  // a background trim may race the listing
            // Plus the index's free pages not yet given back (at most 16) and the marker file.
            #expect(onDisk <= limit + largestEntry + 16 * CacheIndex.pageSize + 4096)
            clock.advance(by: 1)
            if i == 5 { _ = try cache.value(forKey: "k0") }  // keep k0 recent
            if i % 3 == 0 { _ = try cache.value(forKey: "k0") }
        }
        cache.waitForBackgroundWork()
        #expect(cache.bytesOnDisk() <= limit)
        #expect(try cache.value(forKey: "k0") != nil, "the most recently accessed entry survives trimming")
        #expect(throws: DiskCacheError.entryTooLarge(size: 5_000_092, limit: limit)) {
            try cache.store([UInt8](repeating: 0, count: 5_000_000), forKey: "huge")
        }
    }

    @Test func expiryFollowsTheInjectedClock() throws {
        let dir = try TemporaryDirectory()
        let clock = ManualClock()
        let cache = try DiskCache(
            config: .init(directory: dir.path("cache"), expiration: .seconds(10), sweepInterval: nil), clock: clock)
        try cache.store([1], forKey: "a")
        try cache.store([2], forKey: "b", expiration: .never)
        try cache.store([3], forKey: "c")
        try cache.store([4], forKey: "gone", expiration: .expired)
        #expect(!cache.isCached(forKey: "gone"))
        clock.advance(by: 8)
        #expect(try cache.value(forKey: "c") == [3])  // extends c by 10 s from now
        clock.advance(by: 3)
        #expect(!cache.isCached(forKey: "a") && cache.isCached(forKey: "c") && cache.isCached(forKey: "b"))
        #expect(try cache.value(forKey: "a") == nil)
        #expect(!FileManager.default.fileExists(atPath: cache.path(forKey: "a")))
        clock.advance(by: 8)
        #expect(cache.removeExpiredValues() == [cache.fileName(forKey: "c")])
        #expect(try cache.value(forKey: "b") == [2])
        _ = try cache.value(forKey: "b", extendingExpiration: .expirationTime(.seconds(5)))
        clock.advance(by: 6)
        #expect(!cache.isCached(forKey: "b"))
    }

    @Test func corruptAndTruncatedEntriesAreRemoved() throws {
        let dir = try TemporaryDirectory()
        let cache = try makeCache(dir)
        for key in ["torn", "flipped", "good", "junk"] {
            try cache.store([UInt8](repeating: 5, count: 5000), forKey: key)
        }
        let torn = try FileHandle(forWritingTo: URL(fileURLWithPath: cache.path(forKey: "torn")))
        try torn.truncate(atOffset: 3000)
        try torn.close()
        let flipped = try FileHandle(forUpdating: URL(fileURLWithPath: cache.path(forKey: "flipped")))
        try flipped.seek(toOffset: 4000)
        try flipped.write(contentsOf: Data([0xFF]))
        try flipped.close()
        try Data("not a cache entry".utf8).write(to: URL(fileURLWithPath: cache.path(forKey: "junk")))
        try Data("half-written".utf8).write(to: URL(fileURLWithPath: dir.path("cache/.magpie-tmp/999999999-1")))
        // Opening walks no entry (the index knows them): a dead writer's leftover goes, damaged
        // files are found as they are read, never served, removed and counted.
        let reopened = try makeCache(dir)
        #expect(reopened.openingReport.leftoversRemoved == 1 && reopened.openingReport.invalidRemoved == 0)
        #expect(try reopened.value(forKey: "flipped") == nil, "a payload failing its CRC is never served")
        #expect(try reopened.value(forKey: "torn") == nil && (try reopened.value(forKey: "junk")) == nil)
        #expect(reopened.invalidEntriesRemoved == 3 && reopened.count == 1)
        #expect(try reopened.value(forKey: "good") == [UInt8](repeating: 5, count: 5000))
        for key in ["torn", "flipped", "junk"] {
            #expect(!FileManager.default.fileExists(atPath: cache.path(forKey: key)))
        }
    }

    @Test func anEntryRewrittenByAnotherCacheWithALongerHeaderIsReadNotDiscarded() throws {
        let dir = try TemporaryDirectory()
        let a = try makeCache(dir)
        let b = try makeCache(dir)
        try a.store([UInt8](repeating: 1, count: 3000), forKey: "shared")
        #expect(try a.value(forKey: "shared") == [UInt8](repeating: 1, count: 3000))
        #expect(try a.value(forKey: "shared") == [UInt8](repeating: 1, count: 3000))
        // `a` knows the old header's size; the new file's header is longer by the validators.
        let meta = DiskEntryMetadata(etag: "\"v2-\(String(repeating: "e", count: 40))\"", contentType: "image/png")
        try b.store([UInt8](repeating: 2, count: 2000), forKey: "shared", metadata: meta)
        #expect(try a.value(forKey: "shared") == [UInt8](repeating: 2, count: 2000))
        #expect(a.invalidEntriesRemoved == 0)
        #expect(a.entryInfo(forKey: "shared")?.metadata == meta)
        // Truncated after `a` verified it (the file's size no longer matches): removed, counted.
        let file = try FileHandle(forUpdating: URL(fileURLWithPath: a.path(forKey: "shared")))
        try file.truncate(atOffset: 1500)
        try file.close()
        #expect(try a.value(forKey: "shared") == nil)
        #expect(a.invalidEntriesRemoved == 1)
    }

    @Test func writeErrorsAreTypedAndTheCacheStaysUsable() throws {
        let dir = try TemporaryDirectory()
        let cache = try makeCache(dir)
        // A directory where the entry's file would go.
        try FileManager.default.createDirectory(
            atPath: cache.path(forKey: "blocked"), withIntermediateDirectories: false)
        do {
            try cache.store([1], forKey: "blocked")
            Issue.record("stored over a directory")
        } catch {
            #expect(error.errorNumber == EISDIR)
        }
        // A name too long for the file system.
        let plain = try DiskCache(
            config: .init(
                directory: dir.path("plain"), usesHashedFileName: false, sweepInterval: nil, inlineThreshold: 0))
        #expect(
            throws: DiskCacheError.writeFailed(
                path: plain.path(forKey: String(repeating: "n", count: 300)), errno: ENAMETOOLONG)
        ) {
            try plain.store([1], forKey: String(repeating: "n", count: 300))
        }
        #expect(throws: DiskCacheError.invalidKey("a/b")) { try plain.store([1], forKey: "a/b") }
        try cache.store([2], forKey: "fine")
        #expect(try cache.value(forKey: "fine") == [2])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path("cache")).filter {
            $0.hasPrefix(".tmp-")
        }
        #expect(leftovers.isEmpty)
        // Something other than a directory at the cache path.
        try Data().write(to: URL(fileURLWithPath: dir.path("file")))
        #expect(throws: DiskCacheError.notADirectory(path: dir.path("file"))) {
            try DiskCache(config: .init(directory: dir.path("file"), sweepInterval: nil))
        }
    }

    @Test func fileSizeLimitFailsTheWriteCleanly() throws {
        let dir = try TemporaryDirectory()
        // prlimit (util-linux) starts the helper with RLIMIT_FSIZE of 1 MB (the index and its
        // log stay well below it).
        let child = try ChildProcess(
            URL(fileURLWithPath: "/usr/bin/prlimit"),
            ["--fsize=1000000", Helper.writer.path, "store-once", dir.path("cache"), "3000000"])
        let first = child.readLine() ?? ""
        let second = child.readLine() ?? ""
        child.process.waitUntilExit()
        #expect(first.hasPrefix("error: cannot write") && first.contains("too large"), "\(first)")
        #expect(second == "still usable")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path("cache/.magpie-tmp"))
        #expect(names.isEmpty, "the failed write left \(names)")
    }

    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func aDirectoryWithoutPermissionIsReported() throws {
        let dir = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.path("locked"), withIntermediateDirectories: false)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.url.path)
        // As root every directory is writable: run the helper as "nobody" instead.
        let child = try ChildProcess(
            URL(fileURLWithPath: "/usr/bin/setpriv"),
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", Helper.writer.path, "store-once",
                dir.path("locked/cache"),
            ])
        let line = child.readLine() ?? ""
        child.process.waitUntilExit()
        #expect(line.contains("cannot create cache directory") && line.contains("Permission denied"), "\(line)")
        #expect(child.process.terminationStatus == 3)
    }

    @Test func removeAllIsImmediateAndCleansUpInTheBackground() throws {
        let dir = try TemporaryDirectory()
        let cache = try makeCache(dir)
        for i in 0..<50 { try cache.store([UInt8](repeating: 1, count: 1000), forKey: "k\(i)") }
        try cache.removeAll()
        #expect(cache.count == 0 && cache.totalSize() == 0 && !cache.isCached(forKey: "k1"))
        try cache.store([1], forKey: "after")
        #expect(try cache.value(forKey: "after") == [1])
        cache.waitForBackgroundWork()
        let siblings = try FileManager.default.contentsOfDirectory(atPath: dir.url.path)
        #expect(!siblings.contains { $0.contains(".trash-") })
    }

    @Test func defaultDirectoryFollowsXDG() {
        let config = DiskCache.Config(name: "thumbs")
        let env = ProcessInfo.processInfo.environment
        if let root = env["MAGPIE_CACHE_HOME"], root.hasPrefix("/") {
            #expect(config.resolvedDirectory == (root.hasSuffix("/") ? String(root.dropLast()) : root) + "/thumbs")
        } else if let xdg = env["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            #expect(config.resolvedDirectory == xdg + "/magpie/thumbs")
        } else {
            #expect(config.resolvedDirectory == (env["HOME"] ?? "/tmp") + "/.cache/magpie/thumbs")
        }
    }
}
