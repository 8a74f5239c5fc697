import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie

/// Only heuristically cacheable statuses (RFC 9110 §15.1; for images 200 and 203) are kept
/// without explicit freshness: a `201 Created` or `202 Accepted` that says nothing of its
/// lifetime stays off the disk and is fetched again by the next process, as `no-store` is.
extension HTTPCachePolicyTests {
    @Test func a201Or202WithoutExplicitFreshnessIsNotStored() async throws {
        let handler: LoopbackServer.Handler = { request in
            let status = Int(request.path.dropFirst().prefix(3)) ?? 200
            var headers = [
                ("Content-Type", "image/jpeg"), ("ETag", "\"e\""), ("Last-Modified", "Thu, 18 Aug 2050 02:01:18 GMT"),
            ]
            if request.path.contains("max-age") { headers.append(("Cache-Control", "max-age=600")) }
            if request.path.contains("public") { headers.append(("Cache-Control", "public")) }
            return .respond(status: status, headers: headers, body: NetFixture.jpeg)
        }
        let loader = ScriptedDataLoader(handler)
        do {
            let h = try PipelineHarness(transports: ["http": loader])
            let o = options()
            func onDisk(_ path: String) async throws -> Bool {
                let url = loader.url(path)
                #expect(try await h.manager.retrieveImage(with: .network(url), options: o).image.width == 96)
                return h.cache.isOnDisk(forKey: h.manager.cacheKey(for: .network(url), options: o))
            }
            for path in ["/201.jpg", "/202.jpg"] {
                let stored = try await onDisk(path)
                #expect(!stored, "\(path) stored without explicit freshness")
            }
            #expect(h.manager.statistics.keptOffDisk == 2)
            for path in ["/200.jpg", "/203.jpg", "/201-max-age.jpg", "/202-public.jpg"] {
                let stored = try await onDisk(path)
                #expect(stored, "\(path) not stored")
            }
            #expect(h.manager.statistics.keptOffDisk == 2)
            // A new process (a new manager on the same folder) asks the origin again.
            let url = loader.url("/201.jpg")
            let next = try PipelineHarness(dir: h.dir, clock: h.clock, transports: ["http": loader])
            #expect(try await next.manager.retrieveImage(with: .network(url), options: o).cacheType == .none)
            #expect(loader.requestCount("/201.jpg") == 2)
            try await next.finish()
            try await h.finish()
        }
    }
}
