import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie

/// `ImageManager.retrieveData`: encoded bytes, served from disk without a decode, coalesced,
/// revalidated by the same rule as images; in memory over `ScriptedDataLoader`.
@Suite struct RetrieveDataTests {
    func options(_ configure: (inout ImageOptions) -> Void = { _ in }) -> ImageOptions {
        var o = ImageOptions()
        o.retry = .times(0)
        configure(&o)
        return o
    }

    @Test func originalBytesAreStoredAsTheyCameAndServedWithoutADecode() async throws {
        let origin = RevalidatingOrigin()
        origin.set("/o.jpg") { _ in }
        let loader = ScriptedDataLoader(origin.handler)
        let h = try PipelineHarness(transports: ["http": loader])
        let url = loader.url("/o.jpg")
        let first = try await h.manager.retrieveData(with: .network(url), options: options())
        #expect(first.data == NetFixture.jpeg && first.format == .jpeg && first.cacheType == .none)
        // The origin's lifetime comes with the bytes (a service passes it on), and a 304 renews it.
        let stored = h.clock.now().timeIntervalSinceReferenceDate
        #expect(first.freshness.lifetime == 60 && first.freshness.freshUntil == stored + 60)
        let again = try await h.manager.retrieveData(with: .network(url), options: options())
        #expect(again.data == NetFixture.jpeg && again.cacheType == .disk && !again.revalidated)
        #expect(loader.requestCount("/o.jpg") == 1 && h.manager.statistics.processed == 0, "no decode at all")
        // Stale: a 304 renews it, no body, no decode.
        h.clock.advance(by: 61)
        let renewed = try await h.manager.retrieveData(with: .network(url), options: options())
        #expect(renewed.cacheType == .disk && renewed.revalidated && renewed.data == NetFixture.jpeg)
        #expect(renewed.freshness.freshUntil == h.clock.now().timeIntervalSinceReferenceDate + 60)
        #expect(origin.conditionalRequests("/o.jpg") == 1 && h.manager.statistics.notModified == 1)
        // Changed at the origin: the new bytes replace the entry.
        let png = NetFixture.png
        origin.set("/o.jpg") {
            $0.version = 2
            $0.body = png
        }
        h.clock.advance(by: 61)
        let replaced = try await h.manager.retrieveData(with: .network(url), options: options())
        #expect(replaced.cacheType == .none && replaced.format == .png && replaced.data == png)
        #expect(try h.cache.diskStorage.value(forKey: url.absoluteString) == png)
        #expect(h.manager.statistics.processed == 0)
        try await h.finish()
    }

    @Test func aProcessedVariantIsMadeOnceThenServedFromDisk() async throws {
        let origin = RevalidatingOrigin()
        origin.set("/p.jpg") { $0.cacheControl = "max-age=600" }
        let loader = ScriptedDataLoader(origin.handler)
        let h = try PipelineHarness(transports: ["http": loader])
        let url = loader.url("/p.jpg")
        let thumb = options { $0.processor = DownsamplingProcessor(width: 24, height: 24) }
        let made = try await h.manager.retrieveData(with: .network(url), options: thumb)
        #expect(made.cacheType == .none && h.manager.statistics.processed == 1)
        let info = try ImageInfo(probing: made.data)
        #expect(info.width == 24 && info.height == 16)
        h.cache.clearMemoryCache()
        let served = try await h.manager.retrieveData(with: .network(url), options: thumb)
        #expect(served.cacheType == .disk && served.data == made.data)
        #expect(made.freshness.lifetime == 600 && served.freshness == made.freshness, "a variant's is its source's")
        #expect(h.manager.statistics.processed == 1 && loader.requestCount("/p.jpg") == 1, "no decode, no request")
        // Memory only: nothing on disk to read back, so the image is encoded by the serializer.
        var memoryOnly = thumb
        memoryOnly.cache.memoryOnly = true
        memoryOnly.processor = DownsamplingProcessor(width: 12, height: 12)
        let encoded = try await h.manager.retrieveData(with: .network(url), options: memoryOnly)
        #expect(try ImageInfo(probing: encoded.data).width == 12 && encoded.cacheType == .none)
        try await h.finish()
    }

    @Test func concurrentCallsShareOneRetrieval() async throws {
        let gate = Gate()
        let loader = ScriptedDataLoader { _ in
            await gate.wait()
            return .ok(NetFixture.jpeg, contentType: "image/jpeg")
        }
        let h = try PipelineHarness(transports: ["http": loader])
        let url = loader.url("/shared.jpg")
        let manager = h.manager
        // The gate holds the download: a loaded machine must not time it out first.
        let o = options { $0.request.timeout = .seconds(300) }
        let results = try await withThrowingTaskGroup(of: RetrieveDataResult.self) { group in
            for _ in 0..<6 { group.addTask { try await manager.retrieveData(with: .network(url), options: o) } }
            await eventually("six callers on one flight") {
                loader.requestCount("/shared.jpg") == 1 && manager.dataFlights.waiting == 6
            }
            gate.open()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0.data == NetFixture.jpeg } && results.filter(\.coalesced).count == 5)
        #expect(loader.requestCount("/shared.jpg") == 1)
        try await h.finish()
    }

    @Test func onlyFromCacheAndNoStore() async throws {
        let loader = ScriptedDataLoader { _ in
            .respond(
                status: 200, headers: [("Content-Type", "image/jpeg"), ("Cache-Control", "no-store")],
                body: NetFixture.jpeg)
        }
        let h = try PipelineHarness(transports: ["http": loader])
        let url = loader.url("/n.jpg")
        let key = h.manager.cacheKey(for: .network(url))
        await #expect(throws: ImageRetrieveError.notCached(key: key)) {
            try await h.manager.retrieveData(with: .network(url), options: options { $0.readPolicy = .cacheOnly })
        }
        #expect(loader.requestCount("/n.jpg") == 0)
        let served = try await h.manager.retrieveData(with: .network(url), options: options())
        #expect(served.data == NetFixture.jpeg && !h.cache.isOnDisk(forKey: key), "no-store: served, not kept")
        try await h.finish()
    }
}

extension RetrieveDataTests {
    /// A disk write that fails (here: an entry over the cache's size cap, as a full disk would
    /// fail it) does not fail the retrieval: the bytes are good, as the pipeline's stores treat
    /// them. A prefetch, whose job is the entry, reports it failed.
    @Test func aFailedDiskWriteStillReturnsTheBytesButFailsAPrefetch() async throws {
        let loader = ScriptedDataLoader { _ in .ok(NetFixture.jpeg, contentType: "image/jpeg") }
        let h = try PipelineHarness(transports: ["http": loader])
        let small = try ImageCache(
            memory: .init(totalCostLimit: 1 << 20, cleanInterval: nil),
            disk: .init(directory: h.dir.path("small"), sweepInterval: nil, maxEntrySize: 100), clock: h.clock)
        let o = options { $0.cache.target = small }
        let url = loader.url("/big.jpg")
        let got = try await h.manager.retrieveData(with: .network(url), options: o)
        #expect(got.data == NetFixture.jpeg && got.cacheType == .none)
        #expect(!small.isOnDisk(forKey: h.manager.cacheKey(for: .network(url), options: o)))
        let summary = await ImagePrefetcher(urls: [url], manager: h.manager, options: o, diskOnly: true).start()
        #expect(summary.failed.count == 1 && summary.completed.isEmpty)
        await small.shutdown()
        try await h.finish()
    }
}
