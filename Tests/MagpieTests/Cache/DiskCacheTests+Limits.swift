import Foundation
import MagpieTestSupport
import Testing

@testable import Magpie

/// Limits that hold on disk: what the file system gives each file and the index, not the bytes
/// written; the count limit; the volume's free space; a full disk.
extension DiskCacheTests {
    /// What `du` counts for the folder: every file's blocks (the index and its log among them,
    /// but not the shared-memory file SQLite maps, 32 KiB, that the limit leaves out).
    func blocksInFolder(_ folder: String) -> Int {
        var total = 0
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return 0 }
        for case let name as String in walker where !name.hasSuffix("-shm") {
            var st = stat()
            if lstat(folder + "/" + name, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG {
                total += Int(st.st_blocks) * 512
            }
        }
        return total
    }

    /// A thumbnail service's entries: 24-63 px thumbnails of 700 bytes to 3 KB.
    func thumbnail(_ n: Int) -> [UInt8] {
        var state = UInt32(truncatingIfNeeded: n &* 2_654_435_761 &+ 7)
        return (0..<(700 + (n * 7_919) % 2_300)).map { _ in
            state ^= state << 13
            state ^= state >> 17
            state ^= state << 5
            return UInt8(truncatingIfNeeded: state)
        }
    }

    /// The case: a 2 MB limit and 3,000 small thumbnails ended at 16 MB on disk, each
    /// file taking a 4 KB block or more. Now the folder's blocks stay within the limit at every
    /// write (plus the index's free pages not yet given back), for files and rows alike; and rows
    /// keep more entries in the same disk than files (the files-only store is the baseline).
    @Test func theSizeLimitHoldsOnDisk() throws {
        var most: [Int: Int] = [:]
        for inline in [0, 8 << 10] {
            let dir = try TemporaryDirectory()
            let folder = dir.path("cache")
            let limit = 2 << 20
            let cache = try makeCache(dir, limit: limit, inline: inline)
            for n in 0..<3_000 {
                try cache.store(thumbnail(n), forKey: "https://img.example/\(n).jpg@rs:fit:\(24 + n % 40)")
                if n % 150 == 149 {
                    cache.waitForBackgroundWork()
                    let onDisk = blocksInFolder(folder)
                    // The limit, plus the index's free pages not yet given back (at most 16) and the
                    // marker file.
                    #expect(onDisk <= limit + 16 * CacheIndex.pageSize + 4096, "\(onDisk) bytes after \(n + 1) writes")
                    #expect(abs(cache.bytesOnDisk() - onDisk) <= 4096, "\(cache.statistics()) against \(onDisk)")
                }
                most[inline] = max(most[inline] ?? 0, cache.count)
            }
        }
        let (files, rows) = (most[0] ?? 0, most[8 << 10] ?? 0)
        #expect(Double(rows) >= 1.6 * Double(files), "at most \(rows) rows against \(files) files in 2 MB")
        print("2 MB limit, 3,000 thumbnails: at most \(files) entries as files, \(rows) as rows")
    }

    /// With room for all of them, the same thumbnails take at most 1.25 times their bytes on disk
    /// as rows (as files: 4 KB blocks, about twice).
    @Test func smallEntriesTakeLittleMoreThanTheirBytesOnDisk() throws {
        let dir = try TemporaryDirectory()
        let cache = try makeCache(dir, limit: 64 << 20, inline: 32 << 10)
        var stored = 0
        for n in 0..<3_000 {
            let bytes = thumbnail(n)
            stored += bytes.count
            try cache.store(bytes, forKey: "https://img.example/\(n).jpg")
        }
        cache.compact(try #require(cache.currentIndex()))
        let ratio = Double(blocksInFolder(dir.path("cache"))) / Double(stored)
        #expect(ratio <= 1.25, "\(ratio) bytes on disk per byte stored")
        #expect(cache.count == 3_000 && cache.statistics().rows == 3_000)
    }

    @Test func theCountLimitHoldsAtEveryWriteAndTrimsToHalf() throws {
        let dir = try TemporaryDirectory()
        let clock = ManualClock()
        let cache = try DiskCache(
            config: .init(
                directory: dir.path("cache"), sizeLimit: 0, sweepInterval: nil, countLimit: 100, freeSpaceLimit: 0),
            clock: clock)
        for n in 0...100 {
            clock.advance(by: 1)
            try cache.store([UInt8(n % 256)], forKey: "k\(n)")
            #expect(cache.count <= 100)
            if n == 90 { _ = try cache.value(forKey: "k0") }  // the oldest, read: kept
        }
        cache.waitForBackgroundWork()
        #expect(cache.count == 50, "trimmed to half the limit")
        #expect(try cache.value(forKey: "k0") != nil && (try cache.value(forKey: "k100")) != nil)
        #expect(try cache.value(forKey: "k30") == nil && (try cache.value(forKey: "k60")) != nil)
    }

    /// Mounts a tmpfs of `bytes` at a new folder for `body` (root only), and unmounts it.
    func withSmallVolume(_ bytes: Int, _ body: (String) throws -> Void) throws {
        let dir = try TemporaryDirectory()
        let mountPoint = dir.path("volume")
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: false)
        func run(_ arguments: [String]) throws -> Int32 {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: arguments[0])
            p.arguments = Array(arguments.dropFirst())
            try p.run()
            p.waitUntilExit()
            return p.terminationStatus
        }
        #expect(try run(["/bin/mount", "-t", "tmpfs", "-o", "size=\(bytes),mode=0700", "tmpfs", mountPoint]) == 0)
        defer { _ = try? run(["/bin/umount", mountPoint]) }
        try body(mountPoint + "/cache")
    }

    /// A full disk (filled by another program's file): the write that does not fit fails with
    /// ENOSPC and leaves nothing behind; what is cached is still served, and writes work again
    /// once there is room.
    @Test(.enabled(if: getuid() == 0)) func aFullDiskRefusesTheWriteAndServesWhatItHas() throws {
        try withSmallVolume(2 << 20) { folder in
            let cache = try DiskCache(
                config: .init(directory: folder, sizeLimit: 0, sweepInterval: nil, freeSpaceLimit: 0))
            func payload(_ n: Int) -> [UInt8] {
                thumbnail(n) + (n % 5 == 0 ? [UInt8](repeating: 1, count: 40_000) : [])
            }
            for n in 0..<10 { try cache.store(payload(n), forKey: "k\(n)") }
            // Another program fills the volume.
            let ballast = folder + "/../ballast"
            let fd = open(ballast, O_WRONLY | O_CREAT, 0o600)
            let chunk = [UInt8](repeating: 0, count: 64 << 10)
            while chunk.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
            close(fd)
            var failure: DiskCacheError?
            for n in 10..<400 {
                do {
                    try cache.store(payload(n), forKey: "k\(n)")
                } catch {
                    failure = error as? DiskCacheError
                    break
                }
            }
            let error = try #require(failure, "a full volume took 390 more entries")
            #expect(error.errorNumber == ENOSPC, "\(error)")
            for n in 0..<10 { #expect(try cache.value(forKey: "k\(n)") == payload(n), "k\(n)") }
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/.magpie-tmp").isEmpty)
            unlink(ballast)
            try cache.store([7, 7, 7], forKey: "after")
            try cache.store(payload(500), forKey: "k500")
            #expect(try cache.value(forKey: "after") == [7, 7, 7] && (try cache.value(forKey: "k500")) == payload(500))
        }
    }

    /// The volume's free space: below the limit, the least recently accessed entries go until it
    /// is free again, whatever the size limit says.
    @Test(.enabled(if: getuid() == 0)) func theCacheLeavesTheVolumesFreeSpace() throws {
        try withSmallVolume(4 << 20) { folder in
            let clock = ManualClock()
            let cache = try DiskCache(
                config: .init(directory: folder, sizeLimit: 0, sweepInterval: nil, freeSpaceLimit: 2 << 20),
                clock: clock)
            for n in 0..<60 {
                clock.advance(by: 2)  // a free-space look at most once a second
                try cache.store([UInt8](repeating: UInt8(n), count: 60_000), forKey: "k\(n)")
                cache.waitForBackgroundWork()
            }
            let free = try #require(cache.freeSpace())
            #expect(free >= (2 << 20) - 200_000, "\(free) bytes left free")
            #expect(try cache.value(forKey: "k59") != nil && (try cache.value(forKey: "k0")) == nil)
            #expect(cache.count < 40)
        }
    }
}

extension DiskCacheTests {
    /// A trim of more entries than one batch (1,000) keeps going until the folder is at half the
    /// limit, though it fell within the limit itself after the first batches.
    @Test(arguments: [0, 8 << 10]) func aTrimOfManyBatchesReachesHalfTheLimit(inline: Int) throws {
        let dir = try TemporaryDirectory()
        let clock = ManualClock()
        do {
            let writer = try makeCache(dir, clock: clock, inline: inline)
            for n in 0..<5_000 {
                clock.advance(by: 1)
                try writer.store(thumbnail(n), forKey: "k\(n)")
            }
        }
        let full = try makeCache(dir, clock: clock, inline: inline).bytesOnDisk()
        let limit = full * 3 / 4
        let trimming = try makeCache(dir, limit: limit, clock: clock, inline: inline)
        let removed = trimming.removeSizeExceededValues()
        #expect(removed.count > 2_000, "\(removed.count) removed")
        #expect(trimming.bytesOnDisk() <= limit / 2 + 16 * CacheIndex.pageSize, "\(trimming.statistics())")
        #expect(try trimming.value(forKey: "k4999") == thumbnail(4999) && (try trimming.value(forKey: "k0")) == nil)
    }
}
