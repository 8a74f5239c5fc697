import Foundation
import InMemoryTracing
import MagpieLoopback
import MagpieTestSupport
import Testing
import Tracing

@testable import Magpie

extension TracingTests {
    /// Callers in different traces share one download: the propagator's fields (here the
    /// in-memory tracer's own, not W3C's) are added after the coalescing key is made, so they
    /// cannot keep callers apart whatever their names.
    @Test func callersInOtherTracesShareADownload() async throws {
        _ = TestTracer.shared
        let gate = Gate()
        let seen = Recorder<[(name: String, value: String)]>()
        try await withServer({ request in
            seen.add(request.headers)
            await gate.wait()
            return .ok(NetFixture.jpeg, contentType: "image/jpeg")
        }) { server in
            let downloader = ImageDownloader(config: .init(failedURLTTL: nil))
            let url = NetFixture.url(server, "/traced.jpg")
            let tasks = (0..<3).map { _ in
                Task { try await withSpan("caller") { _ in try await downloader.download(url) } }
            }
            await eventually("three callers on one download") { downloader.callersWaiting == 3 }
            gate.open()
            var joined = 0
            for task in tasks { joined += try await task.value.coalesced ? 1 : 0 }
            #expect(joined == 2 && server.requestCount("/traced.jpg") == 1)
            // The request carried the first caller's trace.
            #expect(seen.all.first?.contains { $0.name == InMemoryTracer.traceIDKey } == true)
            try await downloader.shutdown()
        }
    }
}
