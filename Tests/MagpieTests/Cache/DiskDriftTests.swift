import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie

/// The cache telling the truth when the disk changes under it (issue 11, items 1 to 4).
@Suite struct DiskDriftTests {
    /// Kingfisher `testDiskCacheStillWorkWhenFolderDeletedExternally`: the next write makes the
    /// folder again (mode, marker) and succeeds; entries that went with it are no longer claimed.
    @Test func aFolderRemovedWhileRunningIsMadeAgain() throws {
        let dir = try TemporaryDirectory()
        let folder = dir.path("cache")
        let cache = try DiskCache(config: .init(directory: folder, sizeLimit: 1 << 20, sweepInterval: nil))
        try cache.store([1, 2, 3], forKey: "before")
        try FileManager.default.removeItem(atPath: folder)
        try cache.store([4, 5, 6], forKey: "after")
        #expect(try cache.value(forKey: "after") == [4, 5, 6])
        #expect(!cache.isCached(forKey: "before") && cache.directoryRecreations == 1)
        #expect(FileManager.default.fileExists(atPath: folder + "/.magpie-cache"))
        let mode = try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int
        #expect(mode == 0o700)
        // The index came back with it and counts the new entry alone.
        #expect(cache.count == 1 && cache.totalSize() > 3)
        #expect(FileManager.default.fileExists(atPath: folder + "/" + CacheIndex.fileName))
    }

    /// `isCached` and the prefetcher look at the file; `isCachedFromIndex` answers from the index
    /// (entries kept as files: a row has no file to remove).
    @Test func entriesRemovedBehindTheIndexAreFetchedAgain() async throws {
        try await withServer(imageServer()) { server in
            let h = try PipelineHarness(inlineThreshold: 0)
            let url = NetFixture.url(server, "/img/drift.jpg")
            let first = await ImagePrefetcher(urls: [url], manager: h.manager, diskOnly: true).start()
            #expect(first.completed.count == 1)
            let key = h.manager.cacheKey(for: .network(url))
            try FileManager.default.removeItem(atPath: h.cache.diskStorage.path(forKey: key))
            #expect(h.cache.diskStorage.isCachedFromIndex(forKey: key))  // what this process's index says
            let again = await ImagePrefetcher(urls: [url], manager: h.manager, diskOnly: true).start()
            #expect(again.completed.count == 1 && again.skipped.isEmpty)
            #expect(server.requestCount("/img/drift.jpg") == 2)
            #expect(h.cache.diskStorage.isCached(forKey: key))
            try FileManager.default.removeItem(atPath: h.cache.diskStorage.path(forKey: key))
            #expect(h.cache.imageCachedTypeFromIndex(forKey: key) == .disk)  // the index alone
            #expect(!h.cache.diskStorage.isCached(forKey: key))
            #expect(!h.cache.diskStorage.isCachedFromIndex(forKey: key))  // dropped from the index too
            #expect(h.cache.imageCachedType(forKey: key) == .none)
            try await h.finish()
        }
    }

    /// A corrupt original on disk (a bad download stored by the disk-only prefetcher, a torn or
    /// rotting file) is a miss for processed retrievals: removed, fetched again, counted.
    @Test func anUndecodableOriginalIsAMissNotAFailure() async throws {
        try await withServer(imageServer()) { server in
            let h = try PipelineHarness()
            let url = NetFixture.url(server, "/img/poisoned.jpg")
            let key = h.manager.cacheKey(for: .network(url))
            // Sniffs as a JPEG, does not decode: what a cut-off download leaves.
            let damaged = Array(NetFixture.jpeg.prefix(NetFixture.jpeg.count / 3))
            try h.cache.diskStorage.store(damaged, forKey: key)
            var options = ImageOptions()
            options.processor = DownsamplingProcessor(width: 24, height: 24)
            options.cache.storesOriginal = true
            options.cache.waitForCache = true
            let result = try await h.manager.retrieveImage(with: .network(url), options: options)
            #expect(result.cacheType == .none && result.image.width == 24 && result.image.height == 16)
            #expect(server.requestCount("/img/poisoned.jpg") == 1)
            #expect(h.manager.statistics.originalsDiscarded == 1 && h.manager.statistics.fetches == 1)
            #expect(h.cache.statistics.undecodableRemoved == 1)
            #expect(try h.cache.diskStorage.value(forKey: key) == NetFixture.jpeg, "the good original replaced it")
            // Another size now starts from the good original, without a download.
            options.processor = DownsamplingProcessor(width: 48, height: 48)
            let other = try await h.manager.retrieveImage(with: .network(url), options: options)
            #expect(other.cacheType == .disk && other.image.width == 48)
            #expect(server.requestCount("/img/poisoned.jpg") == 1 && h.manager.statistics.originalHits == 1)
            // Without a network to fall back on, a damaged original is `notCached`, not a decode error.
            try h.cache.diskStorage.store(damaged, forKey: key)
            var cached = options
            cached.processor = DownsamplingProcessor(width: 12, height: 12)
            cached.readPolicy = .cacheOnly
            await #expect(throws: ImageRetrieveError.notCached(key: key)) {
                try await h.manager.retrieveImage(with: .network(url), options: cached)
            }
            #expect(!h.cache.diskStorage.isCached(forKey: key))
            try await h.finish()
        }
    }

    /// `keepsOriginalData` answers on every path: downloads, disk hits, originals on disk and
    /// memory hits whose bytes are on disk.
    @Test func keepsOriginalDataOnEveryHit() async throws {
        try await withServer(imageServer()) { server in
            let h = try PipelineHarness()
            let url = NetFixture.url(server, "/img/kept.jpg")
            var plain = ImageOptions()
            plain.keepsOriginalData = true
            plain.cache.waitForCache = true
            let fetched = try await h.manager.retrieveImage(with: .network(url), options: plain)
            #expect(fetched.cacheType == .none && fetched.data == NetFixture.jpeg)
            let memory = try await h.manager.retrieveImage(with: .network(url), options: plain)
            #expect(memory.cacheType == .memory && memory.data == NetFixture.jpeg)
            h.cache.clearMemoryCache()
            let disk = try await h.manager.retrieveImage(with: .network(url), options: plain)
            #expect(disk.cacheType == .disk && disk.data == NetFixture.jpeg)

            // Processed: the original is kept on disk, the processed entry holds a re-encoding.
            var thumb = plain
            thumb.processor = DownsamplingProcessor(width: 32, height: 32)
            thumb.cache.storesOriginal = true
            let original = try await h.manager.retrieveImage(with: .network(url), options: thumb)
            #expect(original.cacheType == .disk && original.data == NetFixture.jpeg, "processed from the original")
            let thumbMemory = try await h.manager.retrieveImage(with: .network(url), options: thumb)
            #expect(thumbMemory.cacheType == .memory && thumbMemory.data == NetFixture.jpeg)
            h.cache.clearMemoryCache()
            let thumbDisk = try await h.manager.retrieveImage(with: .network(url), options: thumb)
            let entry = try h.cache.diskStorage.value(
                forKey: ImageCache.cacheKey(
                    h.manager.cacheKey(for: .network(url)), processorIdentifier: thumb.processorIdentifier))
            #expect(thumbDisk.cacheType == .disk && thumbDisk.data == entry && entry != nil)
            #expect(try Image(decoding: thumbDisk.data ?? []).width == 32)

            // Memory-only: nothing on disk to give.
            var memoryOnly = plain
            memoryOnly.cache.memoryOnly = true
            let other = NetFixture.url(server, "/img/memory-only.jpg")
            _ = try await h.manager.retrieveImage(with: .network(other), options: memoryOnly)
            let memoryOnlyHit = try await h.manager.retrieveImage(with: .network(other), options: memoryOnly)
            #expect(memoryOnlyHit.cacheType == .memory && memoryOnlyHit.data == nil)
            #expect(server.requestCount("/img/kept.jpg") == 1)
            try await h.finish()
        }
    }
}
