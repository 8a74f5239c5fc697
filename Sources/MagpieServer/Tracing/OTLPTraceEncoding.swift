import Tracing

/// Finished spans as an OTLP `ExportTraceServiceRequest` in protobuf (opentelemetry-proto,
/// `trace/v1/trace.proto` and `collector/trace/v1/trace_service.proto`): one resource, one
/// instrumentation scope. Written by hand, field by field: the service needs one message, and
/// a protobuf runtime would be a dependency every build compiles.
enum OTLPTraceEncoding {
    /// The request body for `spans`, under a resource with `attributes` (`service.name`…).
    static func request(_ spans: [FinishedSpan], resource attributes: [(String, String)], scope: String) -> [UInt8] {
        var p = Protobuf()
        p.reserve(spans.count * 160 + 256)
        p.message(1) { resourceSpans in
            resourceSpans.message(1) { resource in
                for (key, value) in attributes { resource.keyValue(1, key, .string(value)) }
            }
            resourceSpans.message(2) { scopeSpans in
                scopeSpans.message(1) { $0.string(1, scope) }
                for span in spans { scopeSpans.message(2) { encode(span, into: &$0) } }
            }
        }
        return p.bytes
    }

    static func encode(_ span: FinishedSpan) -> Protobuf {
        var m = Protobuf()
        encode(span, into: &m)
        return m
    }

    /// A `Span` message's fields, written into `m`.
    static func encode(_ span: FinishedSpan, into m: inout Protobuf) {
        let id = span.identity
        m.ids(1, id.traceHigh, id.traceLow)
        m.ids(2, id.spanID)
        if let state = id.traceState { m.string(3, state) }
        if id.parentSpanID != 0 { m.ids(4, id.parentSpanID) }
        m.string(5, span.name)
        m.varint(6, kindNumber(span.kind))
        m.fixed64(7, span.start)
        m.fixed64(8, span.end)
        span.attributes.forEach { key, value in m.keyValue(9, key, value) }
        span.server?.forEach { key, value in m.keyValue(9, key, value) }
        for event in span.events {
            m.message(11) { e in
                e.fixed64(1, event.nanosecondsSinceEpoch)
                e.string(2, event.name)
                event.attributes.forEach { key, value in e.keyValue(3, key, value) }
            }
        }
        for link in span.links {
            m.message(13) { l in
                l.ids(1, link.traceHigh, link.traceLow)
                l.ids(2, link.spanID)
            }
        }
        if let status = span.status {
            m.message(15) { s in
                if let message = status.message, status.code == .error { s.string(2, message) }
                s.varint(3, status.code == .ok ? 1 : 2)
            }
        }
        // flags: the W3C trace flags, and (bits 8–9) whether the parent is known to be remote.
        let remote: UInt32 = id.parentSpanID == 0 ? 0 : 0x100
        m.fixed32(16, (id.sampled ? 1 : 0) | remote)
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

    /// A `KeyValue` with its `AnyValue` (arrays as `ArrayValue`), alone.
    static func keyValue(_ key: String, _ value: SpanAttribute) -> Protobuf {
        var kv = Protobuf()
        kv.string(1, key)
        kv.message(2) { anyValue(value, into: &$0) }
        return kv
    }

    /// An `AnyValue`'s one field.
    static func anyValue(_ value: SpanAttribute, into v: inout Protobuf) {
        switch value {
        case .string(let s): v.string(1, s)
        case .stringConvertible(let s): v.string(1, String(describing: s))
        case .bool(let b): v.varint(2, b ? 1 : 0)
        case .int32(let i): v.varint(3, UInt64(bitPattern: Int64(i)))
        case .int64(let i): v.varint(3, UInt64(bitPattern: i))
        case .double(let d): v.fixed64(4, d.bitPattern)
        case .stringArray(let a): array(a.map { .string($0) }, into: &v)
        case .stringConvertibleArray(let a): array(a.map { .string(String(describing: $0)) }, into: &v)
        case .boolArray(let a): array(a.map { .bool($0) }, into: &v)
        case .int32Array(let a): array(a.map { .int32($0) }, into: &v)
        case .int64Array(let a): array(a.map { .int64($0) }, into: &v)
        case .doubleArray(let a): array(a.map { .double($0) }, into: &v)
        default: v.string(1, String(describing: value))
        }
    }

    private static func array(_ values: [SpanAttribute], into v: inout Protobuf) {
        v.message(5) { a in
            for value in values { a.message(1) { anyValue(value, into: &$0) } }
        }
    }
}

extension Protobuf {
    /// A `KeyValue` message in field `field`.
    mutating func keyValue(_ field: Int, _ key: String, _ value: SpanAttribute) {
        message(field) { kv in
            kv.string(1, key)
            kv.message(2) { OTLPTraceEncoding.anyValue(value, into: &$0) }
        }
    }
}

/// The protobuf wire format, as much as OTLP needs: varints, fixed 32- and 64-bit numbers, and
/// length-delimited fields (strings, bytes, embedded messages), all written into one buffer: an
/// embedded message is written in place and its tag and length put in front of it after, so a
/// batch of spans is one allocation rather than one per message and attribute.
struct Protobuf {
    private(set) var bytes: [UInt8] = []

    mutating func reserve(_ capacity: Int) { bytes.reserveCapacity(capacity) }

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

    mutating func string(_ field: Int, _ value: String) {
        tag(field, 2)
        rawVarint(UInt64(value.utf8.count))
        bytes.append(contentsOf: value.utf8)
    }

    /// The words as big-endian bytes (trace and span IDs).
    mutating func bytes(_ field: Int, bigEndian words: [UInt64]) {
        tag(field, 2)
        rawVarint(UInt64(words.count * 8))
        for word in words { appendBigEndian(word) }
    }

    /// One or two IDs as big-endian bytes, with no array.
    mutating func ids(_ field: Int, _ first: UInt64, _ second: UInt64? = nil) {
        tag(field, 2)
        rawVarint(second == nil ? 8 : 16)
        appendBigEndian(first)
        if let second { appendBigEndian(second) }
    }

    private mutating func appendBigEndian(_ word: UInt64) {
        for i in (0..<8).reversed() { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(8 * i))) }
    }

    /// An embedded message already written.
    mutating func message(_ field: Int, _ message: Protobuf) {
        tag(field, 2)
        rawVarint(UInt64(message.bytes.count))
        bytes.append(contentsOf: message.bytes)
    }

    /// An embedded message `body` writes here; its tag and length go in front of it after.
    mutating func message(_ field: Int, _ body: (inout Protobuf) -> Void) {
        let start = bytes.count
        body(&self)
        // The tag (two bytes at most for OTLP's field numbers) and the length (ten at most).
        var header: (UInt64, UInt64) = (0, 0)
        let length = UInt64(bytes.count - start)
        withUnsafeMutableBytes(of: &header) { raw in
            var n = 0
            func put(_ value: UInt64) {
                var v = value
                while v >= 0x80 {
                    raw[n] = UInt8(truncatingIfNeeded: v) | 0x80
                    v >>= 7
                    n += 1
                }
                raw[n] = UInt8(v)
                n += 1
            }
            put(UInt64(field) << 3 | 2)
            put(length)
            bytes.insert(contentsOf: UnsafeRawBufferPointer(rebasing: raw.prefix(n)), at: start)
        }
    }
}
