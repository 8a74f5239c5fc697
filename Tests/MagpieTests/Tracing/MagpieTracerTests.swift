import Foundation
import MagpieLoopback
import MagpieTestSupport
import Synchronization
import Testing
import Tracing

@testable import MagpieServer

/// Magpie's own tracer: W3C Trace Context in and out, samplers, the bounded span queue, the
/// OTLP protobuf it writes, and the exporter against a collector on loopback. (The whole path,
/// decoded with OpenTelemetry's own protobuf classes, is `Tests/otlp/test_otlp.py`.)
struct MagpieTracerTests {
    struct Dictionary: Extractor, Injector {
        func extract(key: String, from carrier: [String: String]) -> String? { carrier[key] }
        func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) { carrier[key] = value }
    }

    @Test func traceParentIsReadAsW3CSaysAndWrittenBack() throws {
        let valid = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
        let identity = try #require(SpanIdentity(traceParent: valid, traceState: "congo=t61rcWkgMzE"))
        #expect(identity.traceIDHex == "4bf92f3577b34da6a3ce929d0e0e4736" && identity.spanIDHex == "00f067aa0ba902b7")
        #expect(identity.sampled && identity.isRemote && identity.traceState == "congo=t61rcWkgMzE")
        #expect(identity.traceParent == valid)
        #expect(SpanIdentity(traceParent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00")?.sampled == false)
        // A later version is read by its first four fields; version 00 must end there.
        #expect(SpanIdentity(traceParent: "cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-what") != nil)
        for bad in [
            "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",  // uppercase
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",  // zero trace
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",  // zero span
            "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",  // forbidden version
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-x",  // 00 with more
            "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",  // short
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0g", "", "garbage",
        ] {
            #expect(SpanIdentity(traceParent: bad) == nil, "\(bad)")
        }
        // A tracestate over W3C's 512 bytes is dropped, not passed on.
        let long = String(repeating: "a", count: 513)
        #expect(SpanIdentity(traceParent: valid, traceState: long)?.traceState == nil)
    }

    @Test func spansContinueTheCallersTraceAndPassItOn() throws {
        let tracer = MagpieTracer()
        var context = ServiceContext.topLevel
        tracer.extract(
            ["traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "tracestate": "a=1"],
            into: &context, using: Dictionary())
        let server = tracer.startSpan("server", context: context, ofKind: .server)
        let child = tracer.startSpan("child", context: server.context, ofKind: .client)
        var carrier: [String: String] = [:]
        tracer.inject(child.context, into: &carrier, using: Dictionary())
        #expect(carrier["traceparent"] == "00-4bf92f3577b34da6a3ce929d0e0e4736-\(child.identity.spanIDHex)-01")
        #expect(carrier["tracestate"] == "a=1")
        child.attributes["n"] = 1
        child.end()
        server.setStatus(SpanStatus(code: .error, message: "boom"))
        server.end()
        server.end()  // a second end is ignored
        let spans = tracer.queue.drain().spans
        #expect(spans.map(\.name) == ["child", "server"])
        #expect(spans[1].identity.parentSpanID == 0x00f0_67aa_0ba9_02b7)
        #expect(spans[0].identity.parentSpanID == spans[1].identity.spanID)
        #expect(Set(spans.map(\.identity.traceIDHex)) == ["4bf92f3577b34da6a3ce929d0e0e4736"])
        #expect(spans[0].attributes["n"]?.toSpanAttribute() == .int64(1) && spans[1].status?.code == .error)
        #expect(spans.allSatisfy { $0.end >= $0.start && $0.start > 1_700_000_000 * 1_000_000_000 })
        // A new trace gets IDs of its own, never zero, never repeated.
        let roots = (0..<1000).map { _ in tracer.startSpan("root", context: .topLevel, ofKind: .internal).identity }
        #expect(Set(roots.map(\.traceIDHex)).count == 1000 && Set(roots.map(\.spanID)).count == 1000)
        #expect(roots.allSatisfy { $0.parentSpanID == 0 && $0.spanID != 0 && $0.sampled })
    }

    @Test func samplersDecideAsOpenTelemetrySays() throws {
        #expect(MagpieTracer.Sampler(name: "always_off", argument: nil) == .alwaysOff)
        #expect(
            MagpieTracer.Sampler(name: "parentbased_traceidratio", argument: "0.25")
                == .parentBased(root: .traceIDRatio(0.25)))
        #expect(MagpieTracer.Sampler(name: "sometimes", argument: nil) == nil)
        let quarter = MagpieTracer(sampler: .traceIDRatio(0.25))
        let sampled = (0..<4000).filter { _ in quarter.startSpan("r", context: .topLevel, ofKind: .internal).isRecording
        }
        #expect((800...1200).contains(sampled.count), "\(sampled.count) of 4000")
        // Parent-based: the caller's flag decides, whatever the root sampler.
        let never = MagpieTracer(sampler: .parentBased(root: .alwaysOff))
        var context = ServiceContext.topLevel
        context.spanIdentity = SpanIdentity(traceParent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
        let continued = never.startSpan("s", context: context, ofKind: .server)
        #expect(continued.isRecording)
        let dropped = never.startSpan("s", context: .topLevel, ofKind: .server)
        #expect(!dropped.isRecording && !dropped.identity.sampled)
        dropped.attributes["x"] = 1
        dropped.end()
        continued.end()
        #expect(never.queue.drain().spans.map(\.name) == ["s"])
    }

    @Test func withoutAnExporterSpansAreRecordedAndLetGo() {
        let tracer = MagpieTracer(exporting: false)
        let span = tracer.startSpan("s", context: .topLevel, ofKind: .server)
        #expect(span.isRecording)
        span.attributes["k"] = "v"
        #expect(span.attributes["k"]?.toSpanAttribute() == .string("v"))
        span.end()
        #expect(!span.isRecording && tracer.queue.count == 0)
        // Its context still names it, for children and origins.
        #expect(span.context.spanIdentity == span.identity)
    }

    /// The service's own request attributes are fields, not a dictionary: still read back among
    /// the span's attributes, replaced by a later assignment, and exported as attributes.
    @Test func serverAttributesAreAttributesLikeAnyOther() throws {
        let tracer = MagpieTracer()
        let span = tracer.startSpan("s", context: .topLevel, ofKind: .server)
        span.attributes["k"] = "v"
        span.setServerAttributes(ServerSpanAttributes(method: "HEAD", statusCode: 304, cache: "hit"))
        let read = span.attributes
        #expect(read["k"]?.toSpanAttribute() == .string("v"))
        #expect(read["http.request.method"]?.toSpanAttribute() == .string("HEAD"))
        #expect(read["http.response.status_code"]?.toSpanAttribute() == .int64(304))
        #expect(read["magpie.cache"]?.toSpanAttribute() == .string("hit"))
        span.end()
        let finished = try #require(tracer.queue.drain().spans.first)
        let encoded = OTLPTraceEncoding.encode(finished).bytes
        for key in ["k", "http.request.method", "http.response.status_code", "magpie.cache"] {
            let field = OTLPTraceEncoding.keyValue(key, read[key]!.toSpanAttribute()).bytes
            #expect(encoded.firstRange(of: [0x4A, UInt8(field.count)] + field) != nil, "\(key) is not exported")
        }
        let replaced = tracer.startSpan("s", context: .topLevel, ofKind: .server)
        replaced.setServerAttributes(ServerSpanAttributes(method: "GET", statusCode: 200, cache: nil))
        replaced.attributes = ["only": "this"]
        #expect(replaced.attributes["only"] != nil && replaced.attributes["http.request.method"] == nil)
    }

    /// An error's description may hold a URL with a token: only its type goes into the trace.
    @Test func anErrorIsRecordedByItsTypeAlone() throws {
        struct Leaky: Error, CustomStringConvertible {
            var description: String { "invalid URL: https://a.example/x.jpg?token=secret" }
        }
        let tracer = MagpieTracer()
        let span = tracer.startSpan("s", context: .topLevel, ofKind: .client)
        span.recordError(Leaky())
        span.end()
        let event = try #require(tracer.queue.drain().spans.first?.events.first)
        #expect(event.name == "exception")
        #expect(event.attributes["exception.type"]?.toSpanAttribute() == .string(String(reflecting: Leaky.self)))
        var everything = ""
        event.attributes.forEach { key, value in everything += "\(key)=\(value) " }
        #expect(!everything.contains("secret") && !everything.contains("a.example"), "\(everything)")
    }

    @Test func theQueueIsBoundedAndWakesOncePerBatch() {
        let tracer = MagpieTracer(queueCapacity: 8, batchSize: 4)
        let wakes = Mutex(0)
        tracer.queue.onBatch { wakes.withLock { $0 += 1 } }
        for _ in 0..<20 { tracer.startSpan("s", context: .topLevel, ofKind: .internal).end() }
        let (spans, dropped) = tracer.queue.drain()
        #expect(spans.count == 8 && dropped == 12)
        #expect(wakes.withLock { $0 } == 1)
    }

    @Test func protobufIsWrittenAsTheWireFormatSays() {
        var p = Protobuf()
        p.varint(1, 300)
        p.string(2, "hi")
        p.fixed64(3, 1)
        p.fixed32(4, 0x0102_0304)
        p.bytes(5, bigEndian: [0x0102_0304_0506_0708])
        #expect(
            p.bytes == [
                0x08, 0xAC, 0x02, 0x12, 0x02, 0x68, 0x69, 0x19, 1, 0, 0, 0, 0, 0, 0, 0, 0x25, 4, 3, 2, 1,
                0x2A, 8, 1, 2, 3, 4, 5, 6, 7, 8,
            ])
        // An embedded message written in place gets the same tag and length (here two bytes)
        // in front of it as one written apart.
        var inner = Protobuf()
        inner.string(1, String(repeating: "x", count: 300))
        var apart = Protobuf()
        apart.message(7, inner)
        var inPlace = Protobuf()
        inPlace.message(7) { $0.string(1, String(repeating: "x", count: 300)) }
        #expect(inPlace.bytes == apart.bytes && Array(apart.bytes.prefix(3)) == [0x3A, 0xAF, 0x02])
        // A KeyValue of an int: key (1), AnyValue (2) holding int_value (3).
        #expect(
            OTLPTraceEncoding.keyValue("k", .int64(-1)).bytes == [0x0A, 1, 0x6B, 0x12, 11, 0x18]
                + [UInt8](repeating: 0xFF, count: 9) + [1])
    }
}
