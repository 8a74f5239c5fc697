import Synchronization
import Tracing

/// A span ``MagpieTracer`` started: its name, attributes, events and status change under one
/// lock until it ends; then it is handed, once, to the tracer's queue as a `FinishedSpan` (or,
/// with no exporter, let go). A span the sampler dropped records nothing and only carries its
/// identity to children and to origins.
public final class RecordedSpan: Span, SpanIdentityCarrier {
    public let identity: SpanIdentity
    public let kind: SpanKind
    let startNanoseconds: UInt64
    /// Whether the sampler kept it; where it goes when it ends (`nil` without an exporter).
    private let recording: Bool
    private let queue: SpanQueue?
    private let parentContext: ServiceContext

    fileprivate struct State {
        var name: String
        var attributes: SpanAttributes = [:]
        var server: ServerSpanAttributes?
        var events: [SpanEvent] = []
        var links: [SpanIdentity] = []
        var status: SpanStatus?
        var ended = false
    }
    private let state: Mutex<State>

    init(
        name: String, context: ServiceContext, identity: SpanIdentity, kind: SpanKind, start: UInt64,
        recording: Bool, queue: SpanQueue?
    ) {
        self.parentContext = context
        self.identity = identity
        self.kind = kind
        self.startNanoseconds = start
        self.recording = recording
        self.queue = recording ? queue : nil
        state = Mutex(State(name: name))
    }

    /// The parent's context with this span as its current one.
    public var context: ServiceContext { parentContext.with(self) }

    public var isRecording: Bool { recording && !state.withLock { $0.ended } }
    /// Whether the sampler kept it (recording until it ends), without taking the lock.
    var isSampled: Bool { recording }

    public var operationName: String {
        get { state.withLock { $0.name } }
        set {
            guard recording else { return }
            state.withLock { if !$0.ended { $0.name = newValue } }
        }
    }

    /// Every attribute, the server fields (`setServerAttributes(_:)`) among them; setting
    /// replaces them all.
    public var attributes: SpanAttributes {
        get { state.withLock { $0.allAttributes } }
        set {
            guard recording else { return }
            state.withLock { s in
                guard !s.ended else { return }
                s.attributes = newValue
                s.server = nil
            }
        }
    }

    /// The service's own attributes for its request span, kept as fields.
    func setServerAttributes(_ server: ServerSpanAttributes) {
        guard recording else { return }
        state.withLock { if !$0.ended { $0.server = server } }
    }

    public func setStatus(_ status: SpanStatus) {
        guard recording else { return }
        state.withLock { s in
            // OpenTelemetry: Ok is final; Error may be set over Unset.
            if !s.ended && s.status?.code != .ok { s.status = status }
        }
    }

    public func addEvent(_ event: SpanEvent) {
        guard recording else { return }
        state.withLock { if !$0.ended && $0.events.count < 128 { $0.events.append(event) } }
    }

    /// An `exception` event, as OpenTelemetry's semantic conventions name it, with the error's
    /// type only: a description may hold a source URL or a path (`invalid URL: …`, a redirect's
    /// `Location`), and a URL may carry a signature or a token. What went wrong is in the span's
    /// own attributes (the origin's status, say).
    public func recordError(
        _ error: any Error, attributes: SpanAttributes, at instant: @autoclosure () -> some TracerInstant
    ) {
        guard recording else { return }
        var attributes = attributes
        attributes["exception.type"] = String(reflecting: type(of: error))
        addEvent(SpanEvent(name: "exception", at: instant(), attributes: attributes))
    }

    public func addLink(_ link: SpanLink) {
        guard recording, let linked = link.context.spanIdentity else { return }
        state.withLock { if !$0.ended && $0.links.count < 128 { $0.links.append(linked) } }
    }

    public func end(at instant: @autoclosure () -> some TracerInstant) {
        guard recording else { return }
        guard let queue else {
            state.withLock { $0.ended = true }
            return
        }
        let end = instant().nanosecondsSinceEpoch
        let finished = state.withLock { s -> FinishedSpan? in
            guard !s.ended else { return nil }
            s.ended = true
            return FinishedSpan(
                name: s.name, identity: identity, kind: kind, start: startNanoseconds, end: max(end, startNanoseconds),
                attributes: s.attributes, server: s.server, events: s.events, links: s.links, status: s.status)
        }
        if let finished { queue.append(finished) }
    }
}

extension RecordedSpan.State {
    var allAttributes: SpanAttributes {
        var all = attributes
        server?.forEach { all[$0] = $1 }
        return all
    }
}

/// A server span's HTTP attributes as fields rather than a dictionary: the service sets them on
/// every request, and a `SpanAttributes` dictionary costs an allocation and a hash per key each
/// time (about half of what a span cost the service's warm hits).
struct ServerSpanAttributes: Sendable {
    /// `GET`, `HEAD`, or OpenTelemetry's `_OTHER` (nothing a client sends is echoed).
    var method: StaticString
    var statusCode: Int
    /// `X-Magpie-Cache`: where the answer came from.
    var cache: String?

    /// Each attribute under OpenTelemetry's semantic-convention name.
    func forEach(_ body: (String, SpanAttribute) -> Void) {
        body("http.request.method", .string(method.description))
        body("http.response.status_code", .int64(Int64(statusCode)))
        if let cache { body("magpie.cache", .string(cache)) }
    }
}

/// What an ended span leaves for the exporter.
struct FinishedSpan: Sendable {
    var name: String
    var identity: SpanIdentity
    var kind: SpanKind
    /// Nanoseconds since the Unix epoch.
    var start: UInt64
    var end: UInt64
    var attributes: SpanAttributes
    var server: ServerSpanAttributes?
    var events: [SpanEvent]
    var links: [SpanIdentity]
    var status: SpanStatus?
}

/// Ended spans waiting for the exporter: at most `capacity` (later ones are dropped and
/// counted, as OpenTelemetry's batch processor drops past its queue size); the exporter is woken
/// once each time `batchSize` are waiting, never once per span.
final class SpanQueue: Sendable {
    let capacity: Int
    let batchSize: Int
    fileprivate struct State {
        var spans: [FinishedSpan] = []
        var dropped = 0
        var wake: (@Sendable () -> Void)?
    }
    private let state = Mutex(State())

    init(capacity: Int, batchSize: Int) {
        self.capacity = max(1, capacity)
        self.batchSize = max(1, min(batchSize, self.capacity))
    }

    func append(_ span: FinishedSpan) {
        let wake = state.withLock { s -> (@Sendable () -> Void)? in
            guard s.spans.count < capacity else {
                s.dropped += 1
                return nil
            }
            if s.spans.capacity == 0 { s.spans.reserveCapacity(batchSize) }
            s.spans.append(span)
            return s.spans.count == batchSize ? s.wake : nil
        }
        wake?()
    }

    /// Calls `wake` whenever a batch is full.
    func onBatch(_ wake: (@Sendable () -> Void)?) { state.withLock { $0.wake = wake } }

    /// Wakes the exporter whatever the queue holds (``MagpieTracer/forceFlush()``).
    func wakeNow() { state.withLock { $0.wake }?() }

    /// Takes every waiting span, and how many were dropped since the last call.
    func drain() -> (spans: [FinishedSpan], dropped: Int) {
        state.withLock { s in
            defer {
                s.spans = []
                s.dropped = 0
            }
            return (s.spans, s.dropped)
        }
    }

    var count: Int { state.withLock { $0.spans.count } }
}
