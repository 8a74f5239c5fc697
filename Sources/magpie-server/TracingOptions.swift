import ArgumentParser
import MagpieServer
import ServiceLifecycle
import Tracing

#if OTLP
    import OTel
#endif

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where traces go: nowhere unless `--otel-endpoint` (or `OTEL_EXPORTER_OTLP_ENDPOINT`) names an
/// OTLP collector. Magpie's own tracer and exporter (``MagpieTracer``, ``OTLPTraceExporter``) by
/// default; swift-otel's with `--otel-sdk swift-otel` in a build with the `OTLP` trait
/// (`swift build --traits OTLP`).
struct TracingOptions: ParsableArguments {
    @Option(
        name: .long,
        help: """
            Export traces over OTLP (HTTP, protobuf) to the collector at this base URL, \
            http(s)://host:port (spans go to /v1/traces; OTEL_EXPORTER_OTLP_ENDPOINT when not given). \
            An incoming W3C traceparent is continued. OTEL_TRACES_SAMPLER, OTEL_TRACES_EXPORTER, \
            OTEL_SERVICE_NAME, OTEL_EXPORTER_OTLP_HEADERS and OTEL_BSP_* apply.
            """)
    var otelEndpoint: String?

    @Option(
        name: .long,
        help: """
            Which tracer records and exports: magpie (its own, a few hundred nanoseconds a span) or \
            swift-otel (needs a build with --traits OTLP).
            """)
    var otelSdk: String = "magpie"

    @OptionGroup var imgproxy: ImgproxyTelemetry

    /// Whether this build has swift-otel.
    static var swiftOTelBuilt: Bool {
        #if OTLP
            return true
        #else
            return false
        #endif
    }

    func validate() throws {
        guard ["magpie", "swift-otel"].contains(otelSdk) else {
            throw ValidationError("--otel-sdk: magpie or swift-otel")
        }
        if otelSdk == "swift-otel" && !Self.swiftOTelBuilt { throw Self.notBuilt }
        if let otelEndpoint { _ = try Self.tracesURL(otelEndpoint) }
    }

    static let notBuilt = ValidationError(
        "--otel-sdk swift-otel: this magpie-server was built without swift-otel; build it with swift build --traits OTLP"
    )

    static func tracesURL(_ base: String) throws -> String {
        do {
            return try TracingEnvironment.tracesURL(base)
        } catch {
            throw ValidationError("--otel-endpoint: \(error)")
        }
    }

    /// Bootstraps the tracer when an endpoint is given, and returns the exporter's service, which
    /// runs beside the server and sends what is left when it stops.
    func bootstrap(environment given: [String: String]) throws -> (any Service)? {
        let environment = try imgproxy.environment(given)
        guard let base = try imgproxy.endpoint(given: otelEndpoint, environment: environment) else { return nil }
        if otelSdk == "swift-otel" { return try Self.bootstrapSwiftOTel(traces: Self.tracesURL(base)) }
        let settings: TracingEnvironment
        do {
            settings = try TracingEnvironment(base: base, environment: environment)
        } catch {
            throw ValidationError("traces: \(error)")
        }
        let tracer = MagpieTracer(
            sampler: settings.sampler, queueCapacity: settings.queueCapacity, batchSize: settings.batchSize,
            exporting: settings.exporter.endpoint != nil)
        InstrumentationSystem.bootstrap(tracer)
        guard tracer.exporting else { return nil }
        return TraceExportService(exporter: OTLPTraceExporter(tracer: tracer, configuration: settings.exporter))
    }

    static func bootstrapSwiftOTel(traces: String) throws -> any Service {
        #if OTLP
            var configuration = OTel.Configuration.default
            configuration.serviceName = "magpie-server"
            configuration.propagators = [.traceContext]
            configuration.traces.otlpExporter.protocol = .httpProtobuf
            configuration.traces.otlpExporter.endpoint = traces
            // OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER, OTEL_TRACES_EXPORTER… still apply.
            let backend = try OTel.makeTracingBackend(configuration: configuration)
            InstrumentationSystem.bootstrap(backend.factory)
            return backend.service
        #else
            throw notBuilt
        #endif
    }
}

/// The exporter beside the server: on a graceful shutdown it sends what is left and ends.
struct TraceExportService: Service {
    let exporter: OTLPTraceExporter

    func run() async throws {
        await withGracefulShutdownHandler {
            await exporter.run()
        } onGracefulShutdown: {
            exporter.shutdown()
        }
    }
}
