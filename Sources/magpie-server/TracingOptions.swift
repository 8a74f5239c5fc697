import ArgumentParser
import ServiceLifecycle

#if OTLP
    import OTel
    import Tracing
#endif

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where traces go: nowhere unless `--otel-endpoint` (or `OTEL_EXPORTER_OTLP_ENDPOINT`) names an
/// OTLP collector, in a magpie-server built with the `OTLP` trait (`swift build --traits OTLP`).
struct TracingOptions: ParsableArguments {
    @Option(
        name: .long,
        help: """
            Export traces over OTLP (HTTP, protobuf) to the collector at this base URL, \
            http(s)://host:port (spans go to /v1/traces; OTEL_EXPORTER_OTLP_ENDPOINT when not given). \
            An incoming W3C traceparent is continued. Needs a build with --traits OTLP.
            """)
    var otelEndpoint: String?

    /// Whether this build has the exporter.
    static var exporterBuilt: Bool {
        #if OTLP
            return true
        #else
            return false
        #endif
    }

    func validate() throws {
        guard let otelEndpoint else { return }
        _ = try Self.tracesURL(otelEndpoint)
        if !Self.exporterBuilt { throw Self.notBuilt }
    }

    static let notBuilt = ValidationError(
        "--otel-endpoint (or OTEL_EXPORTER_OTLP_ENDPOINT): this magpie-server was built without the OTLP "
            + "exporter; build it with swift build --traits OTLP")

    /// The traces URL for a collector's base URL, as the OpenTelemetry specification builds it
    /// from `OTEL_EXPORTER_OTLP_ENDPOINT`.
    static func tracesURL(_ base: String) throws -> String {
        guard let url = URL(string: base), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            !(url.host(percentEncoded: true) ?? "").isEmpty, url.query == nil, url.user == nil
        else { throw ValidationError("--otel-endpoint must be http(s)://host[:port][/path]") }
        return base + (base.hasSuffix("/") ? "" : "/") + "v1/traces"
    }

    /// Bootstraps the tracer when an endpoint is given, and returns the exporter's service, which
    /// runs beside the server and sends what is left when it stops.
    func bootstrap(environment: [String: String]) throws -> (any Service)? {
        let base = otelEndpoint ?? environment["OTEL_EXPORTER_OTLP_ENDPOINT"].flatMap { $0.isEmpty ? nil : $0 }
        guard let base else { return nil }
        let traces = try Self.tracesURL(base)
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
            _ = traces
            throw Self.notBuilt
        #endif
    }
}
