import Foundation
import MagpieTestSupport
import Testing

@testable import Magpie

/// The plain questions (`isCached`, `imageCachedType`) answer from the file system, as Kingfisher,
/// SDWebImage and Nuke do; the `FromIndex` variants answer from this process's index alone.
extension ImageCacheTests {
    /// Kingfisher's `testDiskCacheStillWorkWhenFolderDeletedExternally`, translated: another
    /// process deletes the cache folder; the cache no longer says `.disk`, and the next store
    /// makes the folder again.
    @Test func theCacheDoesNotClaimAFolderDeletedExternally() async throws {
        let dir = try TemporaryDirectory()
        let cache = try makeCache(dir)
        let key = "https://example.com/deleted.jpg"
        #expect(cache.imageCachedType(forKey: key) == .none)
        let (image, original) = try photo()
        try await cache.store(image, original: original, forKey: key)
        cache.clearMemoryCache()
        #expect(cache.imageCachedType(forKey: key) == .disk)
        try FileManager.default.removeItem(atPath: dir.path("disk"))
        #expect(cache.imageCachedTypeFromIndex(forKey: key) == .disk, "the index alone does not know")
        #expect(cache.imageCachedType(forKey: key) == .none)
        #expect(!cache.diskStorage.isCached(forKey: key) && !cache.diskStorage.isCachedFromIndex(forKey: key))
        #expect(try await cache.retrieveImage(forKey: key).cacheType == .none)
        // Still works: the next store makes the folder again.
        try await cache.store(image, original: original, forKey: key)
        cache.clearMemoryCache()
        #expect(cache.imageCachedType(forKey: key) == .disk && cache.diskStorage.directoryRecreations == 1)
        let back = try await cache.retrieveImage(forKey: key)
        #expect(back.cacheType == .disk && back.image?.width == 64)
    }

    /// One file removed behind the cache's back, with a processed variant beside it (entries
    /// kept as files: a row has no file to remove).
    @Test func aRemovedFileIsNotClaimedForItsProcessedVariantEither() async throws {
        let dir = try TemporaryDirectory()
        let cache = try makeCache(dir, inline: 0)
        let (image, original) = try photo()
        try await cache.store(image, original: original, forKey: "k", processorIdentifier: "thumb")
        cache.clearMemoryCache()
        #expect(cache.imageCachedType(forKey: "k", processorIdentifier: "thumb") == .disk)
        let path = cache.diskStorage.path(forKey: ImageCache.cacheKey("k", processorIdentifier: "thumb"))
        try FileManager.default.removeItem(atPath: path)
        #expect(cache.imageCachedTypeFromIndex(forKey: "k", processorIdentifier: "thumb") == .disk)
        #expect(cache.imageCachedType(forKey: "k", processorIdentifier: "thumb") == .none)
    }
}
