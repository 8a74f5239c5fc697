import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie

/// Stale disk entries are revalidated: a 304 renews them without a download or a decode, a 200
/// replaces them, concurrent revalidations make one request, and stale images are served while
/// revalidating or when the origin fails, as the headers or the options allow.
@Suite struct RevalidationTests {
    let thumb = ResizingProcessor(width: 48, height: 48)

    func options(_ configure: (inout ImageOptions) -> Void = { _ in }) -> ImageOptions {
        var o = ImageOptions()
        o.cache.waitForCache = true
        configure(&o)
        return o
    }

    func withOrigin(_ body: (RevalidatingOrigin, LoopbackServer) async throws -> Void) async throws {
        let origin = RevalidatingOrigin()
        try await withServer(origin.handler) { server in try await body(origin, server) }
    }

    @Test func a304RenewsTheEntriesWithoutADownloadOrADecode() async throws {
        try await withOrigin { origin, server in
            origin.set("/a.jpg") { _ in }
            let h = try PipelineHarness()
            let url = NetFixture.url(server, "/a.jpg")
            let o = options { $0.processor = thumb }
            let finished = Recorder<DownloadMetrics>()
            h.manager.downloader.addObserver { event in
                if case .didFinish(let metrics, nil) = event { finished.add(metrics) }
            }
            let first = try await h.manager.retrieveImage(with: .network(url), options: o)
            #expect(first.cacheType == .none && first.image.width == 48)
            // Reads while fresh never stretch the origin's 60 s: they are disk hits, no request.
            h.clock.advance(by: 50)
            h.cache.clearMemoryCache()
            #expect(try await h.manager.retrieveImage(with: .network(url), options: o).cacheType == .disk)
            h.clock.advance(by: 11)
            h.cache.clearMemoryCache()
            let processedBefore = h.manager.statistics.processed
            let renewed = try await h.manager.retrieveImage(with: .network(url), options: o)
            #expect(renewed.cacheType == .disk && renewed.image.width == 48)
            #expect(origin.requests("/a.jpg").map(\.ifNoneMatch) == [nil, "\"v1\""])
            let stats = h.manager.statistics
            #expect(stats.revalidations == 1 && stats.notModified == 1 && stats.processed == processedBefore)
            #expect(stats.entriesRenewed == 1, "the processed entry (no original is kept by default)")
            #expect(h.manager.downloader.statistics.bytes == NetFixture.jpeg.count, "the 304 brought no body")
            #expect(
                finished.all.map { [$0.conditional ? 1 : 0, $0.statusCode, $0.bytes] } == [
                    [0, 200, NetFixture.jpeg.count], [1, 304, 0],
                ])
            // Renewed for another 60 s from the 304, in memory and on disk.
            #expect(try await h.manager.retrieveImage(with: .network(url), options: o).cacheType == .memory)
            h.clock.advance(by: 59)
            h.cache.clearMemoryCache()
            #expect(try await h.manager.retrieveImage(with: .network(url), options: o).cacheType == .disk)
            #expect(origin.requests("/a.jpg").count == 2)
            try await h.finish()
        }
    }

    @Test func aProcessedEntryAndItsOriginalAreRenewedTogether() async throws {
        try await withOrigin { origin, server in
            origin.set("/b.jpg") { _ in }
            let h = try PipelineHarness()
            let url = NetFixture.url(server, "/b.jpg")
            let o = options {
                $0.processor = thumb
                $0.cache.storesOriginal = true
            }
            _ = try await h.manager.retrieveImage(with: .network(url), options: o)
            h.clock.advance(by: 61)
            h.cache.clearMemoryCache()
            _ = try await h.manager.retrieveImage(with: .network(url), options: o)
            #expect(h.manager.statistics.entriesRenewed == 2)
            // Another size comes from the renewed original: fresh, so no request and no 304.
            let other = options { $0.processor = ResizingProcessor(width: 20, height: 20) }
            let small = try await h.manager.retrieveImage(with: .network(url), options: other)
            #expect(small.cacheType == .disk && small.image.width == 20)
            #expect(origin.requests("/b.jpg").count == 2 && h.manager.statistics.originalHits == 1)
            // The processed entry made from the original carries its validators and freshness:
            // stale together, revalidated by the same ETag.
            let key = h.manager.cacheKey(for: .network(url), options: other)
            let info = h.cache.diskStorage.entryInfo(
                forKey: ImageCache.cacheKey(key, processorIdentifier: other.processorIdentifier))
            #expect(info?.metadata.etag == "\"v1\"" && info?.freshness.lifetime == 60)
            try await h.finish()
        }
    }

    @Test func a200ReplacesTheEntry() async throws {
        try await withOrigin { origin, server in
            origin.set("/c.jpg") { _ in }
            let h = try PipelineHarness()
            let url = NetFixture.url(server, "/c.jpg")
            _ = try await h.manager.retrieveImage(with: .network(url), options: options())
            origin.set("/c.jpg") {
                $0.version = 2
                $0.body = NetFixture.png
            }
            h.clock.advance(by: 61)
            h.cache.clearMemoryCache()
            let replaced = try await h.manager.retrieveImage(with: .network(url), options: options())
            #expect(replaced.cacheType == .none && replaced.image.width == 40)
            #expect(origin.requests("/c.jpg").map(\.ifNoneMatch) == [nil, "\"v1\""])
            let key = h.manager.cacheKey(for: .network(url), options: options())
            #expect(h.cache.diskStorage.entryInfo(forKey: key)?.metadata.etag == "\"v2\"")
            #expect(h.manager.statistics.notModified == 0 && h.manager.statistics.revalidations == 1)
            try await h.finish()
        }
    }

    @Test func concurrentRevalidationsMakeOneRequest() async throws {
        try await withOrigin { origin, server in
            origin.set("/d.jpg") { _ in }
            let h = try PipelineHarness()
            let url = NetFixture.url(server, "/d.jpg")
            let sizes = [thumb, ResizingProcessor(width: 20, height: 20)]
            for p in sizes {
                _ = try await h.manager.retrieveImage(with: .network(url), options: options { $0.processor = p })
            }
            h.clock.advance(by: 61)
            h.cache.clearMemoryCache()
            let gate = Gate()
            origin.conditionalGate.withLock { $0 = gate }
            let manager = h.manager
            let perSize = sizes.map { p in options { $0.processor = p } }
            try await withThrowingTaskGroup(of: CacheType.self) { group in
                for i in 0..<6 {
                    let o = perSize[i % 2]
                    group.addTask { try await manager.retrieveImage(with: .network(url), options: o).cacheType }
                }
                await eventually("one conditional request waits at the origin") {
                    origin.conditionalRequests("/d.jpg") == 1
                }
                await eventually("every caller joined it: two retrievals (one per size) share one request") {
                    manager.callersWaiting == 6 && manager.retrievalsInFlight == 2
                        && manager.downloader.callersWaiting == 2
                }
                gate.open()
                for try await type in group { #expect(type == .disk) }
            }
            #expect(origin.conditionalRequests("/d.jpg") == 1 && origin.requests("/d.jpg").count == 3)
            // Each size's retrieval renews both sizes (every size the manager made of the URL).
            #expect(h.manager.statistics.entriesRenewed == 4)
            try await h.finish()
        }
    }

    @Test func noCacheRevalidatesBeforeEveryUse() async throws {
        try await withOrigin { origin, server in
            origin.set("/e.jpg") { $0.cacheControl = "no-cache" }
            let h = try PipelineHarness()
            let url = NetFixture.url(server, "/e.jpg")
            for _ in 0..<3 {
                #expect(try await h.manager.retrieveImage(with: .network(url), options: options()).image.width == 96)
            }
            #expect(origin.requests("/e.jpg").map(\.ifNoneMatch) == [nil, "\"v1\"", "\"v1\""])
            #expect(h.manager.statistics.notModified == 2 && h.manager.statistics.memoryHits == 0)
            try await h.finish()
        }
    }

    @Test func withoutValidatorsAStaleEntryIsFetchedAgain() async throws {
        try await withOrigin { origin, server in
            origin.set("/f.jpg") { $0.sendsETag = false }
            let h = try PipelineHarness()
            let url = NetFixture.url(server, "/f.jpg")
            _ = try await h.manager.retrieveImage(with: .network(url), options: options())
            h.clock.advance(by: 61)
            h.cache.clearMemoryCache()
            #expect(try await h.manager.retrieveImage(with: .network(url), options: options()).cacheType == .none)
            #expect(origin.requests("/f.jpg").map(\.ifNoneMatch) == [nil, nil])
            #expect(h.manager.statistics.revalidations == 0)
            try await h.finish()
        }
    }

    @Test func theDiskOnlyPrefetcherRevalidatesStaleEntries() async throws {
        try await withOrigin { origin, server in
            origin.set("/p.jpg") { _ in }
            let h = try PipelineHarness()
            let url = NetFixture.url(server, "/p.jpg")
            #expect(await ImagePrefetcher(urls: [url], manager: h.manager, diskOnly: true).start().completed.count == 1)
            #expect(await ImagePrefetcher(urls: [url], manager: h.manager, diskOnly: true).start().skipped.count == 1)
            h.clock.advance(by: 61)
            let again = await ImagePrefetcher(urls: [url], manager: h.manager, diskOnly: true).start()
            #expect(again.revalidated.count == 1 && again.completed.isEmpty && again.bytes == 0)
            #expect(origin.requests("/p.jpg").map(\.ifNoneMatch) == [nil, "\"v1\""])
            #expect(h.manager.statistics.notModified == 1 && h.manager.statistics.entriesRenewed == 1)
            #expect(h.cache.isOnDisk(forKey: h.manager.cacheKey(for: .network(url), options: options())))
            try await h.finish()
        }
    }

    @Test func a304RenewsTheOtherSizesOfTheURLToo() async throws {
        try await withOrigin { origin, server in
            origin.set("/g.jpg") { _ in }
            let h = try PipelineHarness()
            let url = NetFixture.url(server, "/g.jpg")
            let sizes = [48, 20, 30].map { w in
                options {
                    $0.processor = ResizingProcessor(width: w, height: w)
                    $0.cache.storesOriginal = true
                }
            }
            for o in sizes { _ = try await h.manager.retrieveImage(with: .network(url), options: o) }
            #expect(origin.requests("/g.jpg").count == 1, "one download: the other sizes came from its original")
            h.clock.advance(by: 61)
            h.cache.clearMemoryCache()
            #expect(try await h.manager.retrieveImage(with: .network(url), options: sizes[0]).cacheType == .disk)
            #expect(
                h.manager.statistics.entriesRenewed == 4, "every size this manager made of the URL, and the original")
            for o in sizes.dropFirst() {
                #expect(try await h.manager.retrieveImage(with: .network(url), options: o).cacheType == .disk)
            }
            #expect(origin.requests("/g.jpg").count == 2 && h.manager.statistics.revalidations == 1)
            try await h.finish()
        }
    }
}
