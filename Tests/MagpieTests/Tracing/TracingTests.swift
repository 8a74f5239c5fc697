import Foundation
import InMemoryTracing
import MagpieLoopback
import MagpieTestSupport
import Synchronization
import Testing
import Tracing

@testable import Magpie
@testable import MagpieServer

/// The tracer every test process shares once one of these tests has run: an in-memory one. Its
/// spans are told apart by trace ID, which each test gives its requests.
enum TestTracer {
    static let shared: InMemoryTracer = {
        let tracer = InMemoryTracer()
        InstrumentationSystem.bootstrap(tracer)
        return tracer
    }()

    /// The finished spans of `traceID`, by name.
    static func spans(_ traceID: String) -> [String: [FinishedInMemorySpan]] {
        Dictionary(grouping: shared.finishedSpans.filter { $0.traceID == traceID }, by: \.operationName)
    }
}

/// Spans for a service request and what it causes (cache reads, the download with the origin's
/// status and bytes, the decode inside the processing, the encode), continuing the caller's trace.
@Suite(.serialized) struct TracingTests {
    @Test func aColdRequestIsOneTraceFromTheRequestToTheEncode() async throws {
        _ = TestTracer.shared
        let seen = Mutex<[(name: String, value: String)]>([])
        let h = try await ImageServiceTests.harness { request in
            seen.withLock { $0 = request.headers }
            return request.path == "/a.png" ? .ok(NetFixture.png, contentType: "image/png") : .respond(status: 404)
        }
        // The caller's trace, as the in-memory tracer carries it (OTLP's is W3C traceparent).
        let incoming = [(name: InMemoryTracer.traceIDKey, value: "trace-cold"), (InMemoryTracer.spanIDKey, "caller")]
        let r = await h.get(h.target("rs:fit:10:10", "/a.png"), headers: incoming)
        #expect(r.status == 200)
        let spans = TestTracer.spans("trace-cold")
        let request = try #require(spans["magpie.request"]?.first)
        #expect(request.spanContext.parentSpanID == "caller" && request.kind == .server)
        #expect(request.attributes["http.response.status_code"]?.toSpanAttribute() == .int64(200))
        #expect(request.attributes["magpie.cache"]?.toSpanAttribute() == .string("miss"))
        let download = try #require(spans["magpie.download"]?.first)
        #expect(download.kind == .client)
        #expect(download.attributes["http.response.status_code"]?.toSpanAttribute() == .int64(200))
        #expect(
            download.attributes["http.response.body.size"]?.toSpanAttribute() == .int64(Int64(NetFixture.png.count)))
        let process = try #require(spans["magpie.process"]?.first)
        let decode = try #require(spans["magpie.decode"]?.first)
        #expect(decode.spanContext.parentSpanID == process.spanID)
        #expect(decode.attributes["magpie.decode.count"]?.toSpanAttribute() == .int64(1))
        #expect(spans["magpie.encode"]?.isEmpty == false)
        let reads = spans["magpie.cache.read"] ?? []
        #expect(reads.contains { $0.attributes["magpie.cache.hit"]?.toSpanAttribute() == .bool(false) })
        // Every span of the trace descends from the request's.
        let all = spans.values.flatMap { $0 }
        let ids = Set(all.map(\.spanID))
        for span in all where span.operationName != "magpie.request" {
            #expect(span.spanContext.parentSpanID.map(ids.contains) == true, "\(span.operationName)")
        }
        // The origin was told the download's span as its parent.
        let sent = seen.withLock { $0 }
        #expect(sent.contains { $0.name == InMemoryTracer.spanIDKey && $0.value == download.spanID })
        #expect(sent.contains { $0.name == InMemoryTracer.traceIDKey && $0.value == "trace-cold" })

        // A warm hit is the request and the cache's read that found it, no download nor decode;
        // a failed download says the origin's status.
        let warm = [(name: InMemoryTracer.traceIDKey, value: "trace-warm"), (InMemoryTracer.spanIDKey, "caller")]
        #expect(await h.get(h.target("rs:fit:10:10", "/a.png"), headers: warm).status == 200)
        let warmSpans = TestTracer.spans("trace-warm")
        #expect(Set(warmSpans.keys).isSubset(of: ["magpie.request", "magpie.cache.read"]))
        #expect(warmSpans["magpie.request"]?.first?.attributes["magpie.cache"]?.toSpanAttribute() == .string("hit"))
        #expect(
            (warmSpans["magpie.cache.read"] ?? []).allSatisfy {
                $0.attributes["magpie.cache.hit"]?.toSpanAttribute() == .bool(true)
            })
        let missing = [(name: InMemoryTracer.traceIDKey, value: "trace-404"), (InMemoryTracer.spanIDKey, "caller")]
        #expect(await h.get(h.target("w:10", "/none.png"), headers: missing).status == 404)
        let failed = try #require(TestTracer.spans("trace-404")["magpie.download"]?.first)
        #expect(failed.attributes["http.response.status_code"]?.toSpanAttribute() == .int64(404))
        #expect(failed.status?.code == .error && !failed.errors.isEmpty)
        try await h.finish()
    }

    /// `propagatesTraceContext` off (magpie-server's default, as imgproxy's
    /// `IMGPROXY_OPEN_TELEMETRY_PROPAGATE_EXTERNAL`): the download is still traced, and the origin
    /// is not told the trace.
    @Test func anOriginIsNotToldTheTraceWhenPropagationIsOff() async throws {
        _ = TestTracer.shared
        let seen = Mutex<[(name: String, value: String)]>([])
        let h = try await ImageServiceTests.harness(
            { request in
                seen.withLock { $0 = request.headers }
                return .ok(NetFixture.png, contentType: "image/png")
            }, download: { $0.propagatesTraceContext = false })
        let incoming = [(name: InMemoryTracer.traceIDKey, value: "trace-quiet"), (InMemoryTracer.spanIDKey, "caller")]
        #expect(await h.get(h.target("rs:fit:10:10", "/a.png"), headers: incoming).status == 200)
        #expect(TestTracer.spans("trace-quiet")["magpie.download"]?.isEmpty == false, "the download has its span")
        let sent = seen.withLock { $0 }
        #expect(!sent.isEmpty, "the origin was asked")
        #expect(
            !sent.contains { [InMemoryTracer.traceIDKey, InMemoryTracer.spanIDKey].contains($0.name) },
            "the origin was told the trace: \(sent)")
        try await h.finish()
    }
}
