import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie

/// Redirects, progress, keys, cache-key filters, providers and bodies that do not decode.
extension PipelineTests {
    @Test func redirectHandlerAndProgressThroughThePipeline() async throws {
        try await withServer({ request in
            if request.path == "/moved.jpg" { return .respond(status: 301, headers: [("Location", "/img/moved.jpg")]) }
            return await imageServer()(request)
        }) { server in
            let h = try PipelineHarness()
            let seen = Recorder<String>()
            let options = try ImageOptions.make { make in
                make.request.redirects { response, next in
                    seen.add("\(response.statusCode) \(next.url.path)")
                    return next
                }
            }
            let progress = Recorder<Int>()
            let r = try await h.manager.retrieveImage(
                with: .network(NetFixture.url(server, "/moved.jpg")), options: options,
                progress: { got, _ in progress.add(got) })
            #expect(r.image.width == 96 && seen.all == ["301 /img/moved.jpg"])
            #expect(progress.all.last == NetFixture.jpeg.count)
            let refusing = try ImageOptions.make { make in
                make.request.redirects { _, _ in nil }
                make.forceRefresh()
            }
            await #expect(
                throws: ImageRetrieveError.loadingFailed(.redirectRefused(status: 301, location: "/img/moved.jpg"))
            ) {
                try await h.manager.retrieveImage(
                    with: .network(NetFixture.url(server, "/moved.jpg")), options: refusing)
            }
            try await h.finish()
        }
    }

    @Test func keysFiltersProvidersAndUndecodableBodies() async throws {
        try await withServer(imageServer()) { server in
            let h = try PipelineHarness(filter: CacheKeyFilter(droppingQueryItems: ["token"]))
            let a = URL(string: server.baseURL + "/img/k.jpg?token=a&v=1")!
            let b = URL(string: server.baseURL + "/img/k.jpg?token=b&v=1")!
            _ = try await h.manager.retrieveImage(with: .network(a))
            #expect(try await h.manager.retrieveImage(with: .network(b)).cacheType == .memory)
            #expect(h.manager.cacheKey(for: .network(b)) == server.baseURL + "/img/k.jpg?v=1")
            var keyed = ImageOptions()
            keyed.cache.key = "my-key"
            _ = try await h.manager.retrieveImage(with: .network(a), options: keyed)
            #expect(h.cache.memoryStorage.isCached(forKey: "my-key"))

            let provided = try await h.manager.retrieveImage(
                with: .provider(RawImageDataProvider(NetFixture.png, cacheKey: "raw:png")))
            #expect(provided.image.width == 40 && h.cache.memoryStorage.isCached(forKey: "raw:png"))

            let corrupt = NetFixture.url(server, "/corrupt.jpg")
            do {
                _ = try await h.manager.retrieveImage(with: .network(corrupt))
                Issue.record("an undecodable body decoded")
            } catch let error as ImageRetrieveError {
                if case .decodingFailed = error {} else { Issue.record("expected decodingFailed, got \(error)") }
            }
            do {
                _ = try await h.manager.retrieveImage(with: .network(corrupt))
                Issue.record("undecodable body not remembered")
            } catch ImageRetrieveError.loadingFailed(.recentlyFailed(let reason, _)) {
                if case .undecodable = reason {} else { Issue.record("reason \(reason)") }
            }
            #expect(server.requestCount("/corrupt.jpg") == 1)
            // The memory is the pipeline's, which decoded the bytes: the downloader still moves them.
            #expect(try await h.manager.downloader.download(corrupt).data.count > 0)
            #expect(server.requestCount("/corrupt.jpg") == 2)
            try await h.finish()
        }
    }
}

extension PipelineTests {
    /// Flights are keyed by what changes the result: calls that differ only in priority, timeout,
    /// retries or whether they want the original bytes share one download and one decode; a
    /// different processor or read policy does not.
    @Test func retrievalsThatDifferOnlyInTransportShareOneDecode() async throws {
        let gate = Gate()
        try await withServer(imageServer(gate)) { server in
            let h = try PipelineHarness()
            let url = NetFixture.url(server, "/img/transport.jpg")
            var base = ImageOptions()
            base.processor = DownsamplingProcessor(width: 24, height: 24)
            var variants: [ImageOptions] = []
            for i in 0..<4 {
                var o = base
                o.request.priority = [.high, .low, .medium, nil][i]
                // Long ones: the gate holds the download, and a loaded machine must not time it out.
                o.request.timeout = [.seconds(300), .seconds(400), .seconds(500), .seconds(600)][i]
                o.retry = i % 2 == 0 ? .times(0) : nil
                o.keepsOriginalData = i == 3
                variants.append(o)
            }
            base.request.timeout = .seconds(700)
            var refreshing = base
            refreshing.readPolicy = .refresh
            let manager = h.manager
            let results = try await withThrowingTaskGroup(of: RetrieveImageResult.self) { group in
                for o in variants + [refreshing] {
                    group.addTask { try await manager.retrieveImage(with: .network(url), options: o) }
                }
                await eventually("five callers on two flights") {
                    manager.callersWaiting == 5 && manager.retrievalsInFlight == 2
                }
                gate.open()
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.count == 5 && results.allSatisfy { $0.image.width == 24 })
            let stats = h.manager.statistics
            #expect(stats.coalesced == 3 && stats.fetches == 2 && stats.processed == 2)
            #expect(results.contains { $0.data != nil }, "the one that asked for the bytes got them")
            try await h.finish()
        }
    }
}
