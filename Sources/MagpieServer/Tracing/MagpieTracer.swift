import Tracing

/// A tracer for swift-distributed-tracing made to cost little per span: IDs from an atomic
/// counter (`SpanIDSource`), a span's state under one lock, and ended spans appended to a
/// bounded queue that an exporter drains in batches (``OTLPTraceExporter``), woken once per batch
/// rather than once per span. It propagates W3C Trace Context (`traceparent`, `tracestate`) and
/// samples as OpenTelemetry's `OTEL_TRACES_SAMPLER` values say.
///
/// It exists because swift-otel 1.x's tracer cost 31% of the service's warm-hit throughput when
/// recording every span (each span passes through two `AsyncStream`s to other tasks) and 4% with
/// nothing recorded, and its span processor and ID generator are internal (see the README).
public final class MagpieTracer: Tracer, Sendable {
    public typealias Span = RecordedSpan

    /// Which traces are recorded (OpenTelemetry's sampler names).
    public enum Sampler: Sendable, Equatable {
        case alwaysOn, alwaysOff
        /// This fraction of new traces, chosen by trace ID (so every process agrees).
        case traceIDRatio(Double)
        /// A caller's `sampled` flag decides; a new trace is sampled by `root`.
        indirect case parentBased(root: Sampler)

        /// `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG`; `nil` for a name not known.
        public init?(name: String, argument: String?) {
            let ratio = argument.flatMap(Double.init).map { min(max($0, 0), 1) } ?? 1
            switch name.lowercased() {
            case "always_on": self = .alwaysOn
            case "always_off": self = .alwaysOff
            case "traceidratio": self = .traceIDRatio(ratio)
            case "parentbased_always_on": self = .parentBased(root: .alwaysOn)
            case "parentbased_always_off": self = .parentBased(root: .alwaysOff)
            case "parentbased_traceidratio": self = .parentBased(root: .traceIDRatio(ratio))
            default: return nil
            }
        }

        func samples(traceLow: UInt64, parent: SpanIdentity?) -> Bool {
            switch self {
            case .alwaysOn: return true
            case .alwaysOff: return false
            case .traceIDRatio(let ratio):
                // The trace ID's low 63 bits against the ratio's share of them.
                return ratio >= 1 || Double(traceLow & (UInt64.max >> 1)) < ratio * 0x1p63
            case .parentBased(let root):
                if let parent { return parent.sampled }
                return root.samples(traceLow: traceLow, parent: nil)
            }
        }
    }

    public let sampler: Sampler
    let queue: SpanQueue
    /// Whether ended spans are queued for an exporter (without one they are let go at once).
    public let exporting: Bool
    private let ids = SpanIDSource()

    /// - Parameters:
    ///   - sampler: which traces are recorded (OpenTelemetry's `OTEL_TRACES_SAMPLER`).
    ///   - queueCapacity: ended spans kept for the exporter at most (OpenTelemetry's
    ///     `OTEL_BSP_MAX_QUEUE_SIZE`, 2048); later ones are dropped and counted.
    ///   - batchSize: spans per export (`OTEL_BSP_MAX_EXPORT_BATCH_SIZE`, 512).
    ///   - exporting: `false` when nothing exports (`OTEL_TRACES_EXPORTER=none`): spans are
    ///     recorded and let go when they end.
    public init(
        sampler: Sampler = .parentBased(root: .alwaysOn), queueCapacity: Int = 2048, batchSize: Int = 512,
        exporting: Bool = true
    ) {
        self.sampler = sampler
        self.exporting = exporting
        self.queue = SpanQueue(capacity: queueCapacity, batchSize: batchSize)
    }

    public func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> ServiceContext, ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
    ) -> RecordedSpan {
        let parentContext = context()
        // An empty context (most requests: no `traceparent`) has no parent; the lookup's hash
        // and dynamic cast are skipped.
        let parent = parentContext.isEmpty ? nil : parentContext.spanIdentity
        var identity = SpanIdentity(
            traceHigh: parent?.traceHigh ?? ids.next(), traceLow: parent?.traceLow ?? ids.next(), spanID: ids.next(),
            parentSpanID: parent?.spanID ?? 0, sampled: false, traceState: parent?.traceState)
        identity.sampled = sampler.samples(traceLow: identity.traceLow, parent: parent)
        return RecordedSpan(
            name: operationName, context: parentContext, identity: identity, kind: kind,
            start: identity.sampled ? instant().nanosecondsSinceEpoch : 0, recording: identity.sampled,
            queue: exporting ? queue : nil)
    }

    public func activeSpan(identifiedBy context: ServiceContext) -> RecordedSpan? { nil }

    /// Ended spans go to the exporter on its own schedule; this wakes it now.
    public func forceFlush() { queue.wakeNow() }

    public func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract
    ) where Extract.Carrier == Carrier {
        guard let parent = extractor.extract(key: "traceparent", from: carrier),
            let identity = SpanIdentity(
                traceParent: parent, traceState: extractor.extract(key: "tracestate", from: carrier))
        else { return }
        context.spanIdentity = identity
    }

    public func inject<Carrier, Inject: Injector>(
        _ context: ServiceContext, into carrier: inout Carrier, using injector: Inject
    ) where Inject.Carrier == Carrier {
        guard let identity = context.spanIdentity else { return }
        injector.inject(identity.traceParent, forKey: "traceparent", into: &carrier)
        if let state = identity.traceState { injector.inject(state, forKey: "tracestate", into: &carrier) }
    }
}
