import ArgumentParser

/// imgproxy's OpenTelemetry variables onto the exporter Magpie has (OTLP over HTTP with protobuf):
/// `IMGPROXY_OPEN_TELEMETRY_ENABLE` turns it on (at `OTEL_EXPORTER_OTLP_ENDPOINT`, else the OTLP/HTTP
/// default `http://localhost:4318`), and the deprecated `_ENDPOINT` (`host:port`), `_PROTOCOL`
/// (`grpc`, imgproxy's default, is refused: gRPC is not spoken here; `http`, `https`),
/// `_SERVICE_NAME` and `_CONNECTION_TIMEOUT` (seconds) are mapped as imgproxy maps them onto the
/// standard variables.
struct ImgproxyTelemetry: ParsableArguments {
    @Flag(name: .long, help: "Export traces (OTEL_EXPORTER_OTLP_ENDPOINT, else http://localhost:4318).")
    var otelEnable = false
    @Option(name: .long, help: "The collector as HOST:PORT, reached with --otel-protocol (imgproxy's old form).")
    var otelCollector: String?
    @Option(name: .long, help: "How --otel-collector is reached: http or https (grpc is not spoken here).")
    var otelProtocol = "grpc"
    @Option(name: .long, help: "The service name traces carry (OTEL_SERVICE_NAME).")
    var otelServiceName: String?
    @Option(name: .long, help: "Seconds an export may take (OTEL_EXPORTER_OTLP_TIMEOUT, in seconds).")
    var otelTimeout: Int?
    @Flag(
        name: .long,
        help: "Send the trace context (traceparent) to origins with each source request; off: origins are not told it.")
    var otelPropagateExternal = false

    /// The collector's base URL these options name, if any; `nil` when they leave it to
    /// `--otel-endpoint` and the environment.
    func endpoint(given: String?, environment: [String: String]) throws -> String? {
        if let otelCollector {
            guard ["http", "https"].contains(otelProtocol) else {
                throw ValidationError(
                    "--otel-protocol \(otelProtocol): traces are exported over OTLP/HTTP only (use http or https, and the "
                        + "collector's OTLP/HTTP port, 4318 by default)")
            }
            guard !otelCollector.contains("/"), !otelCollector.isEmpty else {
                throw ValidationError("--otel-collector: HOST:PORT")
            }
            return "\(otelProtocol)://\(otelCollector)"
        }
        if let given { return given }
        if let env = environment["OTEL_EXPORTER_OTLP_ENDPOINT"], !env.isEmpty { return env }
        return otelEnable ? "http://localhost:4318" : nil
    }

    /// The environment with the service name and timeout these options set.
    func environment(_ environment: [String: String]) throws -> [String: String] {
        var env = environment
        if let otelServiceName {
            guard !otelServiceName.isEmpty, otelServiceName.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else {
                throw ValidationError("--otel-service-name: printable ASCII")
            }
            env["OTEL_SERVICE_NAME"] = otelServiceName
        }
        if let otelTimeout {
            guard (1...3600).contains(otelTimeout) else { throw ValidationError("--otel-timeout: 1–3600 seconds") }
            env["OTEL_EXPORTER_OTLP_TIMEOUT"] = String(otelTimeout * 1000)
        }
        return env
    }
}
