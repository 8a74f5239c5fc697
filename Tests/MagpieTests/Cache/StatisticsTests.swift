import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie

/// The manager's and the cache's counts agree: one memory lookup counted per retrieval that
/// looked, whichever path it took.
@Suite struct StatisticsTests {
    @Test func managerAndCacheCountTheSameHits() async throws {
        let gate = Gate()
        try await withServer(imageServer(gate)) { server in
            let h = try PipelineHarness()
            let url = NetFixture.url(server, "/img/counted.jpg")
            let options = {
                var o = ImageOptions()
                o.cache.waitForCache = true
                return o
            }()
            let manager = h.manager
            // Ten at once: one looks in memory, misses and fetches; nine join it.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<10 {
                    group.addTask { _ = try await manager.retrieveImage(with: .network(url), options: options) }
                }
                await eventually("ten callers on one fetch") {
                    manager.statistics.fetches == 1 && manager.callersWaiting == 10
                }
                gate.open()
                try await group.waitForAll()
            }
            _ = try await manager.retrieveImage(with: .network(url), options: options)  // memory
            h.cache.clearMemoryCache()
            _ = try await manager.retrieveImage(with: .network(url), options: options)  // disk
            let m = manager.statistics
            let c = h.cache.statistics
            #expect(m.memoryHits == 1 && c.memoryHits == m.memoryHits)
            #expect(m.diskHits == 1 && c.diskHits == m.diskHits)
            #expect(c.memoryMisses == 2, "the fetch's lookup and the disk hit's, not one per caller: \(c)")
            #expect(c.diskMisses == 1 && server.requestCount("/img/counted.jpg") == 1)
            try await h.finish()
        }
    }
}
