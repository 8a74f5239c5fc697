#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A setting of the OpenTelemetry environment that cannot be used, named.
public struct TracingSettingError: Error, CustomStringConvertible, Equatable {
    public var description: String
}

/// ``MagpieTracer`` and ``OTLPTraceExporter`` configured as OpenTelemetry's SDK environment
/// variables say (the names every OpenTelemetry SDK reads), for a collector at `endpoint`.
public struct TracingEnvironment: Sendable {
    public var sampler: MagpieTracer.Sampler = .parentBased(root: .alwaysOn)
    public var queueCapacity = 2048
    public var batchSize = 512
    public var exporter: OTLPTraceExporter.Configuration

    /// - Parameters:
    ///   - base: the collector's base URL (`--otel-endpoint`, `OTEL_EXPORTER_OTLP_ENDPOINT`);
    ///     spans go to `<base>/v1/traces` unless `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` names the
    ///     whole URL.
    ///   - environment: the process's variables (`OTEL_*`).
    /// - Throws: ``TracingSettingError`` for a value OpenTelemetry does not define or out of range
    ///   (an operator's typo stops the start rather than silently tracing otherwise).
    public init(base: String, environment: [String: String]) throws(TracingSettingError) {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        func milliseconds(_ name: String, _ range: ClosedRange<Int>) throws(TracingSettingError) -> Duration? {
            guard let text = value(name) else { return nil }
            guard let n = Int(text), range.contains(n) else { throw .init(description: "\(name): \(text)") }
            return .milliseconds(n)
        }
        func count(_ name: String) throws(TracingSettingError) -> Int? {
            guard let text = value(name) else { return nil }
            guard let n = Int(text), (1...1_000_000).contains(n) else { throw .init(description: "\(name): \(text)") }
            return n
        }
        if let whole = value("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") {
            exporter = OTLPTraceExporter.Configuration(endpoint: try Self.checkedURL(whole))
        } else {
            exporter = OTLPTraceExporter.Configuration(endpoint: try Self.tracesURL(base))
        }
        switch value("OTEL_TRACES_EXPORTER")?.lowercased() {
        case nil, "otlp": break
        case "none": exporter.endpoint = nil
        case let other?: throw .init(description: "OTEL_TRACES_EXPORTER: \(other) (otlp or none)")
        }
        if let name = value("OTEL_TRACES_SAMPLER") {
            guard let sampler = MagpieTracer.Sampler(name: name, argument: value("OTEL_TRACES_SAMPLER_ARG")) else {
                throw .init(description: "OTEL_TRACES_SAMPLER: \(name)")
            }
            self.sampler = sampler
        }
        if let delay = try milliseconds("OTEL_BSP_SCHEDULE_DELAY", 1...3_600_000) { exporter.scheduleDelay = delay }
        if let timeout = try milliseconds("OTEL_EXPORTER_OTLP_TIMEOUT", 1...600_000) { exporter.timeout = timeout }
        if let timeout = try milliseconds("OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", 1...600_000) {
            exporter.timeout = timeout
        }
        if let n = try count("OTEL_BSP_MAX_QUEUE_SIZE") { queueCapacity = n }
        if let n = try count("OTEL_BSP_MAX_EXPORT_BATCH_SIZE") { batchSize = n }
        batchSize = min(batchSize, queueCapacity)
        let headers = value("OTEL_EXPORTER_OTLP_TRACES_HEADERS") ?? value("OTEL_EXPORTER_OTLP_HEADERS")
        exporter.headers =
            try headers.map { text throws(TracingSettingError) in
                try Self.pairs(text, "OTEL_EXPORTER_OTLP_HEADERS")
            } ?? []
        var resource =
            try value("OTEL_RESOURCE_ATTRIBUTES").map { text throws(TracingSettingError) in
                try Self.pairs(text, "OTEL_RESOURCE_ATTRIBUTES")
            } ?? []
        resource.removeAll { $0.0 == "service.name" && value("OTEL_SERVICE_NAME") != nil }
        if !resource.contains(where: { $0.0 == "service.name" }) {
            resource.insert(("service.name", value("OTEL_SERVICE_NAME") ?? "magpie-server"), at: 0)
        }
        resource += [("telemetry.sdk.name", "magpie"), ("telemetry.sdk.language", "swift")]
        exporter.resource = resource
    }

    /// The traces URL for a collector's base URL, as the OpenTelemetry specification builds it
    /// from `OTEL_EXPORTER_OTLP_ENDPOINT`.
    public static func tracesURL(_ base: String) throws(TracingSettingError) -> String {
        let url = try checkedURL(base)
        return url + (url.hasSuffix("/") ? "" : "/") + "v1/traces"
    }

    /// An http(s) URL with a host, no query or user info.
    static func checkedURL(_ text: String) throws(TracingSettingError) -> String {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            !(url.host(percentEncoded: true) ?? "").isEmpty, url.query == nil, url.user == nil
        else { throw .init(description: "the collector's URL must be http(s)://host[:port][/path]: \(text)") }
        return text
    }

    /// `key=value,key=value` with percent-encoded values (W3C Baggage's form, as OpenTelemetry
    /// uses for headers and resource attributes); a header name or value that could split the
    /// request is refused.
    static func pairs(_ text: String, _ name: String) throws(TracingSettingError) -> [(String, String)] {
        var out: [(String, String)] = []
        for item in text.split(separator: ",") {
            let parts = item.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { throw .init(description: "\(name): \(item)") }
            let key = trimmed(parts[0])
            guard !key.isEmpty, let value = ServicePath.percentDecoded(Substring(trimmed(parts[1]))),
                !key.utf8.contains(where: { $0 < 0x21 || $0 > 0x7e || $0 == UInt8(ascii: ":") }),
                !value.utf8.contains(where: { $0 < 0x20 || $0 == 0x7f })
            else { throw .init(description: "\(name): \(item)") }
            out.append((key, value))
        }
        return out
    }

    private static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
