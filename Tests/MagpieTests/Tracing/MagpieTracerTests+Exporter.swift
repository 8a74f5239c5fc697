import Foundation
import MagpieLoopback
import MagpieTestSupport
import Synchronization
import Testing
import Tracing

@testable import MagpieServer

/// The exporter against a collector on loopback: full batches are sent without waiting for the
/// schedule, what is left goes at shutdown, a refusing collector costs the spans it refused (and
/// nothing else), and the OpenTelemetry variables configure it or stop the start.
extension MagpieTracerTests {
    private func makeExporter(_ server: LoopbackServer, batch: Int) -> (MagpieTracer, OTLPTraceExporter) {
        let tracer = MagpieTracer(queueCapacity: 64, batchSize: batch)
        var configuration = OTLPTraceExporter.Configuration(endpoint: server.baseURL + "/v1/traces")
        configuration.scheduleDelay = .seconds(3600)  // only full batches and the shutdown send
        return (tracer, OTLPTraceExporter(tracer: tracer, configuration: configuration))
    }

    @Test func fullBatchesGoAtOnceAndTheRestAtShutdown() async throws {
        let headers = Mutex<[String]>([])
        try await withServer({ request in
            headers.withLock { $0.append((request.header("Content-Type") ?? "") + " " + request.method) }
            return .respond(status: 200)
        }) { server in
            let (tracer, exporter) = makeExporter(server, batch: 4)
            let running = Task { await exporter.run() }
            for _ in 0..<4 { tracer.startSpan("s", context: .topLevel, ofKind: .internal).end() }
            // The fourth span filled a batch: it goes without the hour's schedule.
            await eventually("the full batch is exported") { exporter.exported == 4 }
            tracer.startSpan("late", context: .topLevel, ofKind: .internal).end()
            exporter.shutdown()
            await running.value
            #expect(exporter.exported == 5 && exporter.dropped == 0)
            #expect(server.requestCount("/v1/traces") == 2)
            #expect(headers.withLock { $0 }.allSatisfy { $0 == "application/x-protobuf POST" })
        }
    }

    @Test func aRefusingCollectorCostsOnlyTheSpansItRefused() async throws {
        let refuse = Mutex(true)
        try await withServer({ _ in .respond(status: refuse.withLock { $0 } ? 503 : 200) }) { server in
            let (tracer, exporter) = makeExporter(server, batch: 2)
            for _ in 0..<2 { tracer.startSpan("s", context: .topLevel, ofKind: .internal).end() }
            await exporter.exportWaiting()
            #expect(exporter.dropped == 2 && exporter.exported == 0)
            refuse.withLock { $0 = false }
            for _ in 0..<2 { tracer.startSpan("s", context: .topLevel, ofKind: .internal).end() }
            await exporter.exportWaiting()
            #expect(exporter.dropped == 2 && exporter.exported == 2)
        }
        // Nobody listening: dropped, counted, and the export returns.
        let closed = try await withServer({ _ in .respond(status: 200) }) { $0.baseURL }
        let tracer = MagpieTracer()
        var configuration = OTLPTraceExporter.Configuration(endpoint: closed + "/v1/traces")
        // AsyncHTTPClient tries to connect again until the request's deadline.
        configuration.timeout = .milliseconds(300)
        let exporter = OTLPTraceExporter(tracer: tracer, configuration: configuration)
        tracer.startSpan("s", context: .topLevel, ofKind: .internal).end()
        await exporter.exportWaiting()
        #expect(exporter.dropped == 1)
    }

    /// A collector that takes the request and never answers: the batch is dropped at the
    /// exporter's timeout, and the export returns.
    @Test func aStallingCollectorCostsItsBatchAtTheTimeout() async throws {
        let gate = Gate()
        try await withServer({ _ in
            await gate.wait()
            return .respond(status: 200)
        }) { server in
            let tracer = MagpieTracer()
            var configuration = OTLPTraceExporter.Configuration(endpoint: server.baseURL + "/v1/traces")
            configuration.timeout = .milliseconds(300)
            let exporter = OTLPTraceExporter(tracer: tracer, configuration: configuration)
            for _ in 0..<3 { tracer.startSpan("s", context: .topLevel, ofKind: .internal).end() }
            await exporter.exportWaiting()
            #expect(exporter.dropped == 3 && exporter.exported == 0)
            #expect(server.requestCount("/v1/traces") == 1)
            gate.open()
        }
    }

    @Test func theOpenTelemetryVariablesConfigureTheExporterOrStopTheStart() throws {
        let settings = try TracingEnvironment(
            base: "http://127.0.0.1:4318/",
            environment: [
                "OTEL_TRACES_SAMPLER": "parentbased_traceidratio", "OTEL_TRACES_SAMPLER_ARG": "0.1",
                "OTEL_BSP_SCHEDULE_DELAY": "250", "OTEL_BSP_MAX_QUEUE_SIZE": "100", "OTEL_SERVICE_NAME": "thumbs",
                "OTEL_EXPORTER_OTLP_HEADERS": "api-key=s%20ecret,x-team=img",
                "OTEL_RESOURCE_ATTRIBUTES": "deployment.environment=prod,service.name=ignored",
            ])
        #expect(settings.exporter.endpoint == "http://127.0.0.1:4318/v1/traces")
        #expect(settings.sampler == .parentBased(root: .traceIDRatio(0.1)))
        #expect(settings.exporter.scheduleDelay == .milliseconds(250) && settings.queueCapacity == 100)
        #expect(settings.batchSize == 100)
        #expect(settings.exporter.headers.map { "\($0.0)=\($0.1)" } == ["api-key=s ecret", "x-team=img"])
        let resource = Swift.Dictionary(settings.exporter.resource, uniquingKeysWith: { a, _ in a })
        #expect(resource["service.name"] == "thumbs" && resource["deployment.environment"] == "prod")
        let none = try TracingEnvironment(base: "http://c:1", environment: ["OTEL_TRACES_EXPORTER": "none"])
        #expect(none.exporter.endpoint == nil)
        for (name, value) in [
            ("OTEL_TRACES_SAMPLER", "sometimes"), ("OTEL_TRACES_EXPORTER", "zipkin"),
            ("OTEL_BSP_SCHEDULE_DELAY", "-1"), ("OTEL_EXPORTER_OTLP_HEADERS", "novalue"),
            ("OTEL_EXPORTER_OTLP_HEADERS", "x=a%0d%0aInjected: 1"), ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "ftp://c"),
        ] {
            #expect(throws: TracingSettingError.self, "\(name)=\(value)") {
                try TracingEnvironment(base: "http://c:1", environment: [name: value])
            }
        }
    }
}
