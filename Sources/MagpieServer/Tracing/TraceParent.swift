import Synchronization
import Tracing

/// Where a span sits in its trace: the W3C Trace Context fields (`traceparent`, `tracestate`)
/// as numbers, so a span carries them without allocating.
public struct SpanIdentity: Sendable, Hashable {
    /// The trace ID's 16 bytes, big-endian halves (never both zero).
    public var traceHigh: UInt64
    public var traceLow: UInt64
    /// This span's ID (never zero).
    public var spanID: UInt64
    /// The parent's span ID; 0 for a root span.
    public var parentSpanID: UInt64
    /// The `sampled` trace flag: the trace is recorded somewhere.
    public var sampled: Bool
    /// `tracestate`, passed on unchanged (at most 512 bytes, as W3C lets a vendor cut it).
    public var traceState: String?
    /// Whether this identity came from a caller (`traceparent`) rather than a local span.
    public var isRemote: Bool

    /// The trace ID as 32 lowercase hexadecimal digits.
    public var traceIDHex: String { Self.hex(traceHigh) + Self.hex(traceLow) }
    /// The span ID as 16 lowercase hexadecimal digits.
    public var spanIDHex: String { Self.hex(spanID) }

    /// The `traceparent` value naming this span as the parent (version 00).
    public var traceParent: String { "00-" + traceIDHex + "-" + spanIDHex + (sampled ? "-01" : "-00") }

    /// Parses a `traceparent` value (W3C Trace Context level 1): `00-<32 hex>-<16 hex>-<2 hex>`,
    /// lowercase, neither ID all zeros; a later version is read by its first four fields, as the
    /// specification asks. Anything else is `nil` (the request then starts a new trace).
    public init?(traceParent value: String, traceState: String? = nil) {
        let bytes = Array(value.utf8.prefix(256))
        guard bytes.count >= 55, bytes[2] == UInt8(ascii: "-"), bytes[35] == UInt8(ascii: "-"),
            bytes[52] == UInt8(ascii: "-"), let version = Self.number(bytes[0..<2]), version != 0xff,
            version != 0 ? (bytes.count == 55 || bytes[55] == UInt8(ascii: "-")) : bytes.count == 55,
            let high = Self.number(bytes[3..<19]), let low = Self.number(bytes[19..<35]), high | low != 0,
            let span = Self.number(bytes[36..<52]), span != 0, let flags = Self.number(bytes[53..<55])
        else { return nil }
        self.init(
            traceHigh: high, traceLow: low, spanID: span, parentSpanID: 0, sampled: flags & 1 == 1,
            traceState: traceState.flatMap { $0.isEmpty || $0.utf8.count > 512 ? nil : $0 }, isRemote: true)
    }

    public init(
        traceHigh: UInt64, traceLow: UInt64, spanID: UInt64, parentSpanID: UInt64, sampled: Bool,
        traceState: String? = nil, isRemote: Bool = false
    ) {
        self.traceHigh = traceHigh
        self.traceLow = traceLow
        self.spanID = spanID
        self.parentSpanID = parentSpanID
        self.sampled = sampled
        self.traceState = traceState
        self.isRemote = isRemote
    }

    /// Lowercase hexadecimal digits only (W3C refuses uppercase).
    private static func number(_ digits: ArraySlice<UInt8>) -> UInt64? {
        var value: UInt64 = 0
        for d in digits {
            switch d {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | UInt64(d - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = value << 4 | UInt64(d - UInt8(ascii: "a") + 10)
            default: return nil
            }
        }
        return value
    }

    static func hex(_ value: UInt64) -> String {
        String(unsafeUninitializedCapacity: 16) { buffer in
            let digits: StaticString = "0123456789abcdef"
            for i in 0..<16 { buffer[i] = digits.utf8Start[Int(value >> UInt64(60 - 4 * i) & 0xf)] }
            return 16
        }
    }
}

extension ServiceContext {
    /// The span this context is inside, as ``MagpieTracer`` records it.
    public var spanIdentity: SpanIdentity? {
        get { self[SpanIdentityKey.self]?.identity }
        set { self[SpanIdentityKey.self] = newValue.map(CallerSpan.init) }
    }

    /// The context with `span` as its current span (held by reference: no copy, no box).
    func with(_ span: any SpanIdentityCarrier) -> ServiceContext {
        var context = self
        context[SpanIdentityKey.self] = span
        return context
    }
}

/// What a context holds for its span: the span itself, or the caller's that `traceparent` named.
protocol SpanIdentityCarrier: AnyObject, Sendable {
    var identity: SpanIdentity { get }
}

final class CallerSpan: SpanIdentityCarrier {
    let identity: SpanIdentity
    init(_ identity: SpanIdentity) { self.identity = identity }
}

private enum SpanIdentityKey: ServiceContextKey {
    typealias Value = any SpanIdentityCarrier
    static var nameOverride: String? { "magpie-span" }
}

/// Span and trace IDs: a counter mixed by SplitMix64 from a random start, so every ID is
/// distinct within the process, looks random, and costs one atomic add (no system call, no lock).
final class SpanIDSource: Sendable {
    private let counter: Atomic<UInt64>
    private let key: UInt64

    /// Seeded from the system's random source (`getrandom`), once.
    init() {
        var random = SystemRandomNumberGenerator()
        counter = Atomic(random.next())
        key = random.next() | 1
    }

    /// The next nonzero ID.
    func next() -> UInt64 {
        while true {
            var z = counter.wrappingAdd(0x9E37_79B9_7F4A_7C15, ordering: .relaxed).newValue ^ key
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            if z != 0 { return z }
        }
    }
}
