import Foundation
import MagpieTestSupport
import Testing

@testable import Magpie

@Suite struct ImageCacheTests {
    func makeCache(
        _ dir: TemporaryDirectory, clock: ManualClock = ManualClock(),
        serializer: any CacheSerializer = DefaultCacheSerializer(), inline: Int = DiskCache.Config().inlineThreshold
    )
        throws -> ImageCache
    {
        try ImageCache(
            memory: .init(totalCostLimit: 50_000_000, cleanInterval: nil),
            disk: .init(directory: dir.path("disk"), sweepInterval: nil, inlineThreshold: inline),
            serializer: serializer,
            clock: clock)
    }

    func photo(alpha: Bool = false) throws -> (Image, [UInt8]) {
        let image = try Image(
            width: 64, height: 48, rgba: Fixture.gradient(width: 64, height: 48) { x, _ in alpha && x < 4 ? 0 : 255 })
        return (image, try image.encoded(as: .jpeg(quality: 92)))
    }

    @Test func memoryThenDiskWithPromotion() async throws {
        let dir = try TemporaryDirectory()
        let cache = try makeCache(dir)
        let (image, original) = try photo()
        try await cache.store(image, original: original, forKey: "https://example.com/p.jpg")
        #expect(cache.imageCachedType(forKey: "https://example.com/p.jpg") == .memory)
        #expect(try await cache.retrieveImage(forKey: "https://example.com/p.jpg").cacheType == .memory)
        cache.clearMemoryCache()
        #expect(cache.imageCachedType(forKey: "https://example.com/p.jpg") == .disk)
        let fromDisk = try await cache.retrieveImage(forKey: "https://example.com/p.jpg")
        #expect(fromDisk.cacheType == .disk && fromDisk.image?.width == 64)
        #expect(try await cache.retrieveImage(forKey: "https://example.com/p.jpg").cacheType == .memory, "promoted")
        #expect(try await cache.retrieveImage(forKey: "https://example.com/none.jpg").cacheType == .none)
        let stats = cache.statistics
        #expect(stats.memoryHits == 2 && stats.diskHits == 1 && stats.diskMisses == 1 && stats.memoryMisses == 2)
        #expect(stats.bytesStoredToDisk == original.count)
    }

    @Test func processedImagesHaveTheirOwnKeyAndTheDefaultSerializerKeepsOriginals() async throws {
        let dir = try TemporaryDirectory()
        let cache = try makeCache(dir)
        let (image, original) = try photo()
        let (transparent, _) = try photo(alpha: true)
        try await cache.store(image, original: original, forKey: "k")
        try await cache.store(image, original: original, forKey: "k", processorIdentifier: "thumb-32")
        try await cache.store(transparent, forKey: "k", processorIdentifier: "alpha")
        #expect(ImageCache.cacheKey("k", processorIdentifier: "thumb-32") == "k@thumb-32")
        #expect(ImageCache.cacheKey("k", processorIdentifier: "") == "k")
        #expect(try cache.diskStorage.value(forKey: "k") == original, "unprocessed: original bytes kept")
        let processed = try #require(try cache.diskStorage.value(forKey: "k@thumb-32"))
        #expect(processed != original && ImageFormat(sniffing: processed) == .jpeg)
        #expect(ImageFormat(sniffing: try #require(try cache.diskStorage.value(forKey: "k@alpha"))) == .png)
        let forcedDir = try TemporaryDirectory()
        let forced = try makeCache(forcedDir, serializer: FormatIndicatedCacheSerializer(format: .png()))
        try await forced.store(image, original: original, forKey: "k")
        #expect(ImageFormat(sniffing: try #require(try forced.diskStorage.value(forKey: "k"))) == .png)
    }

    @Test func shutdownWaitsForBackgroundWrites() async throws {
        let dir = try TemporaryDirectory()
        let cache = try makeCache(dir)
        let (image, original) = try photo()
        for i in 0..<20 {
            try await cache.store(image, original: original, forKey: "k\(i)", waitForDisk: false)
        }
        await cache.shutdown()
        for i in 0..<20 { #expect(cache.diskStorage.isCached(forKey: "k\(i)")) }
        // A second cache over the same directory sees them.
        let other = try makeCache(dir)
        #expect(try await other.retrieveImage(forKey: "k7").cacheType == .disk)
    }

    @Test func expiredDiskEntriesAreCleaned() async throws {
        let dir = try TemporaryDirectory()
        let clock = ManualClock()
        let cache = try makeCache(dir, clock: clock)
        let (image, original) = try photo()
        try await cache.store(image, original: original, forKey: "short", diskExpiration: .seconds(10))
        try await cache.store(image, original: original, forKey: "long", diskExpiration: .days(1))
        clock.advance(by: 11)
        #expect(await cache.cleanExpiredDiskCache() == 1)
        #expect(!cache.diskStorage.isCached(forKey: "short") && cache.diskStorage.isCached(forKey: "long"))
    }

    @Test func undecodableDiskEntriesAreRemovedAsMisses() async throws {
        let dir = try TemporaryDirectory()
        let cache = try makeCache(dir)
        try await cache.storeToDisk(Array("not an image".utf8), forKey: "bad")
        #expect(try await cache.retrieveImage(forKey: "bad").cacheType == .none)
        #expect(!cache.diskStorage.isCached(forKey: "bad"))
    }

    @Test func pressureWatcherTrimsWhenThePressureIsHigh() throws {
        let dir = try TemporaryDirectory()
        let memory = MemoryCache<String, Blob>(
            config: .init(totalCostLimit: 10_000, maxEntryCostFraction: 1, cleanInterval: nil))
        for i in 0..<10 { memory.store(Blob(id: i, cacheCost: 100), forKey: "k\(i)") }
        let file = dir.path("memory.pressure")
        let watcher = MemoryPressureWatcher(cache: memory, threshold: 10, interval: nil, pressureFile: file)
        try "some avg10=2.50 avg60=1.00 avg300=0.10 total=1234\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        #expect(watcher.checkOnce() == 2.5 && memory.totalCost == 1000)
        try "some avg10=42.00 avg60=10.00 avg300=1.00 total=99999\nfull avg10=5.00 avg60=1.00 avg300=0.10 total=9\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        #expect(watcher.checkOnce() == 42 && memory.totalCost == 500)
        #expect(
            MemoryPressureWatcher(cache: memory, interval: nil, pressureFile: dir.path("missing")).checkOnce() == nil)
    }
}
