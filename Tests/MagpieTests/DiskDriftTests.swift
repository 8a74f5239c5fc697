import Foundation
import MagpieLoopback
import Testing

@testable import Magpie

/// The cache telling the truth when the disk changes under it (issue 11, items 1 and 2).
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
        #expect(
            cache.totalSize()
                == (try FileManager.default.attributesOfItem(atPath: cache.path(forKey: "after"))[.size] as? Int))
        // The shared size record came back with it and counts the new entry.
        #expect(cache.shared?.total() == cache.totalSize())
    }

    /// `isCached` answers from the index; the checking variant and the prefetcher look at the file.
    @Test func entriesRemovedBehindTheIndexAreFetchedAgain() async throws {
        try await withServer(imageServer()) { server in
            let h = try PipelineHarness()
            let url = NetFixture.url(server, "/img/drift.jpg")
            let first = await ImagePrefetcher(urls: [url], manager: h.manager, diskOnly: true).start()
            #expect(first.completed.count == 1)
            let key = h.manager.cacheKey(for: .network(url))
            try FileManager.default.removeItem(atPath: h.cache.diskStorage.path(forKey: key))
            #expect(h.cache.diskStorage.isCached(forKey: key))  // what this process's index says
            let again = await ImagePrefetcher(urls: [url], manager: h.manager, diskOnly: true).start()
            #expect(again.completed.count == 1 && again.skipped.isEmpty)
            #expect(server.requestCount("/img/drift.jpg") == 2)
            #expect(h.cache.diskStorage.isCached(forKey: key, verifyingFile: true))
            try FileManager.default.removeItem(atPath: h.cache.diskStorage.path(forKey: key))
            #expect(!h.cache.diskStorage.isCached(forKey: key, verifyingFile: true))
            #expect(!h.cache.diskStorage.isCached(forKey: key))  // dropped from the index too
            #expect(h.cache.imageCachedType(forKey: key, verifyingDisk: true) == .none)
            try await h.finish()
        }
    }
}
