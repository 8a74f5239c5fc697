import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie

@Suite struct PipelineTests {
    @Test func memoryThenDiskThenNetwork() async throws {
        try await withServer(imageServer()) { server in
            let h = try PipelineHarness()
            let url = NetFixture.url(server, "/img/a.jpg")
            var options = ImageOptions()
            options.cache.waitForCache = true
            let first = try await h.manager.retrieveImage(with: .network(url), options: options)
            #expect(first.cacheType == .none && first.image.width == 96 && first.image.height == 64)
            let second = try await h.manager.retrieveImage(with: .network(url), options: options)
            #expect(second.cacheType == .memory)
            h.cache.clearMemoryCache()
            let third = try await h.manager.retrieveImage(with: .network(url), options: options)
            #expect(third.cacheType == .disk && third.image.width == 96)
            #expect(server.requestCount("/img/a.jpg") == 1)
            // A second manager over the same directory gets disk hits.
            let other = try PipelineHarness(dir: h.dir)
            let fourth = try await other.manager.retrieveImage(with: .network(url))
            #expect(fourth.cacheType == .disk)
            #expect(server.requestCount("/img/a.jpg") == 1)
            try await h.finish()
            try await other.finish()
        }
    }

    @Test func identicalRetrievalsShareDownloadDecodeAndProcessing() async throws {
        let gate = Gate()
        try await withServer(imageServer(gate)) { server in
            let h = try PipelineHarness()
            let url = NetFixture.url(server, "/img/shared.jpg")
            var small = ImageOptions()
            small.processor = DownsamplingProcessor(width: 24, height: 24)
            var large = ImageOptions()
            large.processor = DownsamplingProcessor(width: 48, height: 48)
            let manager = h.manager
            let results = try await withThrowingTaskGroup(of: RetrieveImageResult.self) { group in
                for i in 0..<40 {
                    let options = i % 2 == 0 ? small : large
                    group.addTask { try await manager.retrieveImage(with: .network(url), options: options) }
                }
                await eventually("40 callers waiting on two fetches") {
                    h.manager.statistics.fetches == 2 && h.manager.downloader.callersWaiting == 2
                }
                gate.open()
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(server.requestCount("/img/shared.jpg") == 1, "one origin request for both processors")
            let stats = h.manager.statistics
            #expect(stats.fetches == 2 && stats.processed == 2 && stats.coalesced == 38)
            #expect(
                results.filter { $0.image.width == 24 }.count == 20
                    && results.filter { $0.image.width == 48 }.count == 20)
            try await h.finish()
        }
    }

    @Test func cacheOptions() async throws {
        try await withServer(imageServer()) { server in
            let h = try PipelineHarness()
            let url = NetFixture.url(server, "/img/o.jpg")
            var wait = ImageOptions()
            wait.cache.waitForCache = true
            _ = try await h.manager.retrieveImage(with: .network(url), options: wait)
            #expect(h.cache.diskStorage.isCached(forKey: url.absoluteString), "waitForCache: on disk at return")

            var force = wait
            force.readPolicy = .refresh
            let refreshed = try await h.manager.retrieveImage(with: .network(url), options: force)
            #expect(refreshed.cacheType == .none && server.requestCount("/img/o.jpg") == 2)

            var only = ImageOptions()
            only.readPolicy = .cacheOnly
            #expect(try await h.manager.retrieveImage(with: .network(url), options: only).cacheType == .memory)
            let absent = NetFixture.url(server, "/img/absent.jpg")
            await #expect(throws: ImageRetrieveError.notCached(key: absent.absoluteString)) {
                try await h.manager.retrieveImage(with: .network(absent), options: only)
            }
            #expect(server.requestCount("/img/absent.jpg") == 0)

            // Disk only: fromMemoryCacheOrRefresh downloads rather than reading the disk.
            h.cache.clearMemoryCache()
            var memoryOrRefresh = wait
            memoryOrRefresh.readPolicy = .memoryThenNetwork
            let viaNetwork = try await h.manager.retrieveImage(with: .network(url), options: memoryOrRefresh)
            #expect(viaNetwork.cacheType == .none && server.requestCount("/img/o.jpg") == 3)

            var memoryOnly = wait
            memoryOnly.cache.memoryOnly = true
            let m = NetFixture.url(server, "/img/memory-only.jpg")
            _ = try await h.manager.retrieveImage(with: .network(m), options: memoryOnly)
            #expect(h.cache.memoryStorage.isCached(forKey: m.absoluteString))
            #expect(!h.cache.diskStorage.isCached(forKey: m.absoluteString))

            // Another target cache, and another downloader.
            let other = try ImageCache(
                memory: .init(cleanInterval: nil), disk: .init(directory: h.dir.path("other"), sweepInterval: nil))
            let downloader = ImageDownloader()
            var elsewhere = wait
            elsewhere.cache.target = other
            elsewhere.request.downloader = downloader
            let t = NetFixture.url(server, "/img/target.jpg")
            _ = try await h.manager.retrieveImage(with: .network(t), options: elsewhere)
            #expect(other.diskStorage.isCached(forKey: t.absoluteString))
            #expect(!h.cache.diskStorage.isCached(forKey: t.absoluteString))
            #expect(downloader.statistics.downloads == 1)
            try await downloader.shutdown()

            // A serializer that forces PNG on disk.
            var png = wait
            png.cache.serializer = FormatIndicatedCacheSerializer(format: .png())
            png.processor = DownsamplingProcessor(width: 20, height: 20)
            let s = NetFixture.url(server, "/img/serialized.jpg")
            _ = try await h.manager.retrieveImage(with: .network(s), options: png)
            let stored = try #require(
                try h.cache.diskStorage.value(
                    forKey: ImageCache.cacheKey(s.absoluteString, processorIdentifier: png.processorIdentifier)))
            #expect(ImageFormat(sniffing: stored) == .png)
            try await h.finish()
        }
    }

    @Test func originalCacheServesOtherProcessors() async throws {
        try await withServer(imageServer()) { server in
            let h = try PipelineHarness()
            let url = NetFixture.url(server, "/img/original.jpg")
            var a = ImageOptions()
            a.processor = DownsamplingProcessor(width: 32, height: 32)
            a.cache.storesOriginal = true
            a.cache.waitForCache = true
            _ = try await h.manager.retrieveImage(with: .network(url), options: a)
            #expect(h.cache.diskStorage.isCached(forKey: url.absoluteString), "original stored under the plain key")
            var b = ImageOptions()
            b.processor = DownsamplingProcessor(width: 16, height: 16, mode: .fill)
                |> CroppingProcessor(width: 8, height: 16)
            b.cache.waitForCache = true
            let r = try await h.manager.retrieveImage(with: .network(url), options: b)
            #expect(r.cacheType == .disk && r.image.width == 8 && r.image.height == 16)
            #expect(server.requestCount("/img/original.jpg") == 1 && h.manager.statistics.originalHits == 1)
            #expect(b.processorIdentifier == "magpie.downsample(fill,16x16)|>magpie.crop(8x16,0.5,0.5)")
            try await h.finish()
        }
    }

    @Test func expiryFollowsTheInjectedClock() async throws {
        try await withServer(imageServer()) { server in
            let h = try PipelineHarness()
            let url = NetFixture.url(server, "/img/expiry.jpg")
            var options = ImageOptions()
            options.cache.waitForCache = true
            options.cache.memory.expiration = .seconds(10)
            options.cache.disk.expiration = .seconds(100)
            options.cache.memory.extendsOnAccess = .none
            _ = try await h.manager.retrieveImage(with: .network(url), options: options)
            h.clock.advance(by: 11)
            #expect(try await h.manager.retrieveImage(with: .network(url), options: options).cacheType == .disk)
            h.clock.advance(by: 101)
            h.cache.clearMemoryCache()
            #expect(try await h.manager.retrieveImage(with: .network(url), options: options).cacheType == .none)
            #expect(server.requestCount("/img/expiry.jpg") == 2)
            try await h.finish()
        }
    }

    @Test func transportOptionsAlternativesAndFirstFrame() async throws {
        try await withServer({ request in
            if request.path == "/img/signed.jpg" && request.header("X-Token") != "t" { return .respond(status: 403) }
            if request.path == "/flaky.jpg" {
                return request.header("X-Try") == nil
                    ? .respond(status: 503) : .ok(NetFixture.jpeg, contentType: "image/jpeg")
            }
            return await imageServer()(request)
        }) { server in
            let h = try PipelineHarness()
            var signed = ImageOptions()
            signed.request.modifier = RequestModifier { r in
                var r = r
                r.headers.set("X-Token", "t")
                return r
            }
            _ = try await h.manager.retrieveImage(
                with: .network(NetFixture.url(server, "/img/signed.jpg")), options: signed)

            let alternative = try await h.manager.retrieveImage(
                with: .network(NetFixture.url(server, "/missing.jpg")),
                options: {
                    var o = ImageOptions()
                    o.alternativeSources = [.network(NetFixture.url(server, "/png"))]
                    return o
                }())
            #expect(alternative.source.url?.path == "/png" && alternative.originalSource.url?.path == "/missing.jpg")
            #expect(alternative.image.width == 40)

            var retry = ImageOptions()
            retry.retry = RetryStrategy(maxRetries: 0)
            await #expect(throws: ImageRetrieveError.loadingFailed(.badStatus(code: 503, retryAfter: nil))) {
                try await h.manager.retrieveImage(with: .network(NetFixture.url(server, "/flaky.jpg")), options: retry)
            }
            // Every source failing reports every source's error, in order, each with its stage.
            var both = ImageOptions()
            both.alternativeSources = [.network(NetFixture.url(server, "/corrupt.jpg"))]
            both.retry = RetryStrategy(maxRetries: 0)
            do {
                _ = try await h.manager.retrieveImage(
                    with: .network(NetFixture.url(server, "/gone.jpg")), options: both)
                Issue.record("two failing sources gave an image")
            } catch let error as ImageRetrieveError {
                guard case .allSourcesFailed(let failures) = error else {
                    Issue.record("expected allSourcesFailed, got \(error)")
                    return
                }
                #expect(failures.map(\.source) == [server.baseURL + "/gone.jpg", server.baseURL + "/corrupt.jpg"])
                #expect(failures.map(\.error.stage) == ["loading", "decoding"])
                #expect(failures[0].error == .loadingFailed(.badStatus(code: 404, retryAfter: nil)))
                #expect(error.description.contains("/gone.jpg") && error.description.contains("/corrupt.jpg"))
            }
            retry.retry = RetryStrategy(maxRetries: 1, backoff: .immediate)
            retry.request.headers = [HTTPHeaderField("X-Try", "1")]
            #expect(
                try await h.manager.retrieveImage(with: .network(NetFixture.url(server, "/flaky.jpg")), options: retry)
                    .image.width == 96)

            let gif = NetFixture.url(server, "/anim.gif")
            var stored = ImageOptions()
            stored.cache.waitForCache = true  // the original is on disk before the next retrieval looks
            #expect(try await h.manager.retrieveImage(with: .network(gif), options: stored).image.frames.count == 2)
            var first = ImageOptions()
            first.onlyLoadFirstFrame = true
            let one = try await h.manager.retrieveImage(with: .network(gif), options: first)
            // Its own key; made from the original the first retrieval stored, without a download.
            #expect(one.image.frames.count == 1 && one.cacheType == .disk)
            #expect(server.requestCount("/anim.gif") == 1)
            #expect(first.processorIdentifier == "magpie.first-frame")
            try await h.finish()
        }
    }
}
