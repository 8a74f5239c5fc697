import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie

@Suite struct PrefetcherTests {
    @Test func summaryCountsCompletedSkippedAndFailed() async throws {
        try await withServer(imageServer()) { server in
            let h = try PipelineHarness()
            var options = ImageOptions()
            options.cache.waitForCache = true
            options.processor = DownsamplingProcessor(width: 32, height: 32)
            _ = try await h.manager.retrieveImage(
                with: .network(NetFixture.url(server, "/img/0.jpg")), options: options)
            let urls = (0..<6).map { NetFixture.url(server, "/img/\($0).jpg") } + [NetFixture.url(server, "/nothing")]
            let steps = Recorder<ImagePrefetcher.Progress>()
            let summary = await ImagePrefetcher(
                urls: urls, manager: h.manager, options: options, maxConcurrentDownloads: 3
            )
            .start { steps.add($0) }
            #expect(summary.completed.count == 5 && summary.skipped.count == 1 && summary.failed.count == 1)
            #expect(summary.failed.first?.source.url?.path == "/nothing")
            #expect(
                summary.failed.first?.error as? ImageRetrieveError
                    == .loadingFailed(.badStatus(code: 404, retryAfter: nil)))
            #expect(summary.bytes == 5 * NetFixture.jpeg.count)
            #expect(steps.all.count == 7 && steps.all.map(\.finished).sorted() == Array(1...7))
            for i in 1..<6 {
                #expect(
                    h.cache.imageCachedType(
                        forKey: urls[i].absoluteString, processorIdentifier: options.processorIdentifier) != .none)
            }
            try await h.finish()
        }
    }

    @Test func diskOnlyStoresBytesWithoutDecoding() async throws {
        try await withServer(imageServer()) { server in
            let h = try PipelineHarness()
            let urls = (0..<4).map { NetFixture.url(server, "/img/w\($0).jpg") }
            let summary = await ImagePrefetcher(urls: urls, manager: h.manager, diskOnly: true).start()
            #expect(summary.completed.count == 4 && h.manager.statistics.processed == 0)
            for url in urls { #expect(try h.cache.diskStorage.value(forKey: url.absoluteString) == NetFixture.jpeg) }
            // A later thumbnail comes from the warmed original, without a download.
            var thumb = ImageOptions()
            thumb.processor = DownsamplingProcessor(width: 16, height: 16)
            let r = try await h.manager.retrieveImage(with: .network(urls[0]), options: thumb)
            #expect(r.cacheType == .disk && server.totalRequests == 4)
            let again = await ImagePrefetcher(urls: urls, manager: h.manager, diskOnly: true).start()
            #expect(again.skipped.count == 4 && server.totalRequests == 4)
            try await h.finish()
        }
    }

    @Test func cancellingStopsTheRest() async throws {
        let gate = Gate()
        try await withServer(imageServer(gate)) { server in
            let h = try PipelineHarness()
            let urls = (0..<10).map { NetFixture.url(server, "/img/c\($0).jpg") }
            let manager = h.manager
            let task = Task { await ImagePrefetcher(urls: urls, manager: manager, maxConcurrentDownloads: 2).start() }
            await eventually("two downloads at the server") { server.totalRequests == 2 }
            task.cancel()
            let summary = await task.value
            #expect(summary.cancelled.count == 10 && summary.completed.isEmpty && summary.failed.isEmpty)
            #expect(server.totalRequests == 2)
            gate.open()
            try await h.finish()
        }
    }
}
