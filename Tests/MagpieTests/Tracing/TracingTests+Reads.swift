import Foundation
import InMemoryTracing
import MagpieLoopback
import MagpieTestSupport
import Testing
import Tracing

@testable import Magpie
@testable import MagpieServer

extension TracingTests {
    /// A new variant costs one cache read, the original's: the variant's absent entry is known
    /// from a stat (no read that would find nothing), and its bytes are those just encoded and
    /// written (no read back of the entry).
    @Test func aNewVariantReadsOnlyItsOriginal() async throws {
        _ = TestTracer.shared
        let h = try await ImageServiceTests.harness { request in
            request.path == "/r.png" ? .ok(NetFixture.png, contentType: "image/png") : .respond(status: 404)
        }
        func reads(_ trace: String, _ options: String) async throws -> [FinishedInMemorySpan] {
            let incoming = [(name: InMemoryTracer.traceIDKey, value: trace), (InMemoryTracer.spanIDKey, "caller")]
            let r = await h.get(h.target(options, "/r.png"), headers: incoming)
            #expect(r.status == 200)
            return TestTracer.spans(trace)["magpie.cache.read"] ?? []
        }
        let hit: (FinishedInMemorySpan) -> Bool = {
            $0.attributes["magpie.cache.hit"]?.toSpanAttribute() == .bool(true)
        }
        let first = try await reads("trace-reads-1", "rs:fit:10:10")
        #expect(first.count == 1 && !first.contains(where: hit), "the original's lookup, which misses")
        let second = try await reads("trace-reads-2", "rs:fit:12:12")
        #expect(second.count == 1 && second.allSatisfy(hit), "the original, on disk since the first")
    }
}
