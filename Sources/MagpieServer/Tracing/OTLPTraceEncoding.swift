import Tracing

/// Finished spans as an OTLP `ExportTraceServiceRequest` in protobuf (opentelemetry-proto,
/// `trace/v1/trace.proto` and `collector/trace/v1/trace_service.proto`): one resource, one
/// instrumentation scope. Written by hand, field by field: the service needs one message, and
/// a protobuf runtime would be a dependency every build compiles.
enum OTLPTraceEncoding {
    /// The request body for `spans`, under a resource with `attributes` (`service.name`…).
    static func request(_ spans: [FinishedSpan], resource attributes: [(String, String)], scope: String) -> [UInt8] {
        var resource = Protobuf()
        for (key, value) in attributes { resource.message(1, keyValue(key, .string(value))) }
        var scopeSpans = Protobuf()
        var scopeMessage = Protobuf()
        scopeMessage.string(1, scope)
        scopeSpans.message(1, scopeMessage)
        for span in spans { scopeSpans.message(2, encode(span)) }
        var resourceSpans = Protobuf()
        resourceSpans.message(1, resource)
        resourceSpans.message(2, scopeSpans)
        var request = Protobuf()
        request.message(1, resourceSpans)
        return request.bytes
    }

    static func encode(_ span: FinishedSpan) -> Protobuf {
        var m = Protobuf()
        let id = span.identity
        m.bytes(1, bigEndian: [id.traceHigh, id.traceLow])
        m.bytes(2, bigEndian: [id.spanID])
        if let state = id.traceState { m.string(3, state) }
        if id.parentSpanID != 0 { m.bytes(4, bigEndian: [id.parentSpanID]) }
        m.string(5, span.name)
        m.varint(6, kindNumber(span.kind))
        m.fixed64(7, span.start)
        m.fixed64(8, span.end)
        span.attributes.forEach { key, value in m.message(9, keyValue(key, value)) }
        span.server?.forEach { key, value in m.message(9, keyValue(key, value)) }
        for event in span.events {
            var e = Protobuf()
            e.fixed64(1, event.nanosecondsSinceEpoch)
            e.string(2, event.name)
            event.attributes.forEach { key, value in e.message(3, keyValue(key, value)) }
            m.message(11, e)
        }
        for link in span.links {
            var l = Protobuf()
            l.bytes(1, bigEndian: [link.traceHigh, link.traceLow])
            l.bytes(2, bigEndian: [link.spanID])
            m.message(13, l)
        }
        if let status = span.status {
            var s = Protobuf()
            if let message = status.message, status.code == .error { s.string(2, message) }
            s.varint(3, status.code == .ok ? 1 : 2)
            m.message(15, s)
        }
        // flags: the W3C trace flags, and (bits 8–9) whether the parent is known to be remote.
        let remote: UInt32 = id.parentSpanID == 0 ? 0 : 0x100
        m.fixed32(16, (id.sampled ? 1 : 0) | remote)
        return m
    }

    /// `SpanKind`: UNSPECIFIED 0, INTERNAL 1, SERVER 2, CLIENT 3, PRODUCER 4, CONSUMER 5.
    static func kindNumber(_ kind: SpanKind) -> UInt64 {
        switch kind {
        case .internal: 1
        case .server: 2
        case .client: 3
        case .producer: 4
        case .consumer: 5
        }
    }

    /// A `KeyValue` with its `AnyValue` (arrays as `ArrayValue`).
    static func keyValue(_ key: String, _ value: SpanAttribute) -> Protobuf {
        var kv = Protobuf()
        kv.string(1, key)
        kv.message(2, anyValue(value))
        return kv
    }

    static func anyValue(_ value: SpanAttribute) -> Protobuf {
        var v = Protobuf()
        switch value {
        case .string(let s): v.string(1, s)
        case .stringConvertible(let s): v.string(1, String(describing: s))
        case .bool(let b): v.varint(2, b ? 1 : 0)
        case .int32(let i): v.varint(3, UInt64(bitPattern: Int64(i)))
        case .int64(let i): v.varint(3, UInt64(bitPattern: i))
        case .double(let d): v.fixed64(4, d.bitPattern)
        case .stringArray(let a): v.message(5, array(a.map { .string($0) }))
        case .stringConvertibleArray(let a): v.message(5, array(a.map { .string(String(describing: $0)) }))
        case .boolArray(let a): v.message(5, array(a.map { .bool($0) }))
        case .int32Array(let a): v.message(5, array(a.map { .int32($0) }))
        case .int64Array(let a): v.message(5, array(a.map { .int64($0) }))
        case .doubleArray(let a): v.message(5, array(a.map { .double($0) }))
        default: v.string(1, String(describing: value))
        }
        return v
    }

    private static func array(_ values: [SpanAttribute]) -> Protobuf {
        var a = Protobuf()
        for value in values { a.message(1, anyValue(value)) }
        return a
    }
}

/// The protobuf wire format, as much as OTLP needs: varints, fixed 32- and 64-bit numbers, and
/// length-delimited fields (strings, bytes, embedded messages).
struct Protobuf {
    private(set) var bytes: [UInt8] = []

    private mutating func tag(_ field: Int, _ wireType: UInt64) { rawVarint(UInt64(field) << 3 | wireType) }

    private mutating func rawVarint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    mutating func varint(_ field: Int, _ value: UInt64) {
        tag(field, 0)
        rawVarint(value)
    }

    mutating func fixed64(_ field: Int, _ value: UInt64) {
        tag(field, 1)
        for i in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(8 * i))) }
    }

    mutating func fixed32(_ field: Int, _ value: UInt32) {
        tag(field, 5)
        for i in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(8 * i))) }
    }

    mutating func string(_ field: Int, _ value: String) { lengthDelimited(field, Array(value.utf8)) }

    /// The words as big-endian bytes (trace and span IDs).
    mutating func bytes(_ field: Int, bigEndian words: [UInt64]) {
        var raw: [UInt8] = []
        raw.reserveCapacity(words.count * 8)
        for word in words {
            for i in (0..<8).reversed() { raw.append(UInt8(truncatingIfNeeded: word >> UInt64(8 * i))) }
        }
        lengthDelimited(field, raw)
    }

    mutating func message(_ field: Int, _ message: Protobuf) { lengthDelimited(field, message.bytes) }

    private mutating func lengthDelimited(_ field: Int, _ payload: [UInt8]) {
        tag(field, 2)
        rawVarint(UInt64(payload.count))
        bytes.append(contentsOf: payload)
    }
}
