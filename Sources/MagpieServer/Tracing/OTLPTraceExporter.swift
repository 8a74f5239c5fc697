import AsyncHTTPClient
import Logging
import NIOCore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Sends what ``MagpieTracer`` recorded to an OpenTelemetry collector over OTLP/HTTP in protobuf
/// (`POST <endpoint>`, `Content-Type: application/x-protobuf`), in batches: when a batch is
/// full, every `scheduleDelay` otherwise, and once more when it stops. A batch the collector
/// refuses or does not take within `timeout` is dropped (and counted), as OpenTelemetry's
/// exporters drop rather than hold memory for a collector that is away. Without an endpoint
/// (`OTEL_TRACES_EXPORTER=none`) spans are recorded and dropped at each batch.
public final class OTLPTraceExporter: Sendable {
    public struct Configuration: Sendable {
        /// The traces URL (`…/v1/traces`); `nil` drops every batch.
        public var endpoint: String?
        /// Extra request fields (`OTEL_EXPORTER_OTLP_HEADERS`), say a collector's API key.
        public var headers: [(String, String)] = []
        /// Resource attributes: `service.name` and any from `OTEL_RESOURCE_ATTRIBUTES`.
        public var resource: [(String, String)] = [("service.name", "magpie-server")]
        public var scheduleDelay: Duration = .seconds(5)
        public var timeout: Duration = .seconds(10)

        public init(endpoint: String?) { self.endpoint = endpoint }
    }

    public let configuration: Configuration
    private let tracer: MagpieTracer
    private let logger: Logger
    private let wakes: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation
    private struct Counts {
        var exported = 0
        var dropped = 0
        var lastWarning: ContinuousClock.Instant?
    }
    private let counts = Mutex(Counts())

    public init(tracer: MagpieTracer, configuration: Configuration, logger: Logger = Logger(label: "magpie.otlp")) {
        self.tracer = tracer
        self.configuration = configuration
        self.logger = logger
        (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        tracer.queue.onBatch { [wake] in wake.yield() }
    }

    /// Spans sent to the collector, and spans dropped (queue full, batch refused or timed out, or
    /// no endpoint), so far.
    public var exported: Int { counts.withLock { $0.exported } }
    public var dropped: Int { counts.withLock { $0.dropped } }

    /// Exports until ``shutdown()``, then exports what is left and returns.
    public func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [wake, configuration] in
                while (try? await Task.sleep(for: configuration.scheduleDelay)) != nil { wake.yield() }
            }
            for await _ in wakes { await exportWaiting() }
            group.cancelAll()
        }
        await exportWaiting()
    }

    /// Ends ``run()`` after one last export.
    public func shutdown() { wake.finish() }

    /// Sends every span waiting, a batch at a time.
    func exportWaiting() async {
        let (spans, droppedInQueue) = tracer.queue.drain()
        if droppedInQueue > 0 { note(dropped: droppedInQueue, "the span queue was full") }
        guard !spans.isEmpty else { return }
        guard let endpoint = configuration.endpoint else {
            counts.withLock { $0.dropped += spans.count }
            return
        }
        var start = 0
        while start < spans.count {
            let batch = Array(spans[start..<min(start + tracer.queue.batchSize, spans.count)])
            start += batch.count
            await send(batch, to: endpoint)
        }
    }

    private func send(_ batch: [FinishedSpan], to endpoint: String) async {
        let body = OTLPTraceEncoding.request(batch, resource: configuration.resource, scope: "magpie")
        var request = HTTPClientRequest(url: endpoint)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-protobuf")
        for (name, value) in configuration.headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(bytes: body))
        do {
            let timeout = TimeAmount.nanoseconds(
                configuration.timeout.components.seconds * 1_000_000_000
                    + configuration.timeout.components.attoseconds / 1_000_000_000)
            let response = try await HTTPClient.shared.execute(request, timeout: timeout)
            _ = try await response.body.collect(upTo: 1 << 20)
            guard (200..<300).contains(response.status.code) else {
                note(dropped: batch.count, "the collector answered \(response.status.code)")
                return
            }
            counts.withLock { $0.exported += batch.count }
        } catch {
            note(dropped: batch.count, "\(error)")
        }
    }

    /// Counts dropped spans and warns at most once a minute.
    private func note(dropped: Int, _ reason: String) {
        let now = ContinuousClock.now
        let warn = counts.withLock { c -> Bool in
            c.dropped += dropped
            guard c.lastWarning.map({ now - $0 >= .seconds(60) }) ?? true else { return false }
            c.lastWarning = now
            return true
        }
        if warn { logger.warning("traces dropped", metadata: ["spans": "\(dropped)", "reason": "\(reason)"]) }
    }
}
