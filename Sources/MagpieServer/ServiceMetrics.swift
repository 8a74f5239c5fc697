import Metrics

/// What the service reports through swift-metrics (names prefixed with the namespace, `magpie_`
/// by default; never labelled by URL or host): requests by route and status code, their
/// durations, requests in flight, variant cache results, and refusals by reason.
struct ServiceMetrics: Sendable {
    let factory: any MetricsFactory
    let inFlight: Meter
    /// What names begin with: `magpie_`, the namespace asked for and `_`, or nothing.
    let prefix: String

    init(factory: any MetricsFactory, namespace: String = "magpie") {
        self.factory = factory
        prefix = namespace.isEmpty ? "" : namespace + "_"
        inFlight = Meter(label: prefix + "requests_in_flight", factory: factory)
    }

    /// One request answered.
    func record(route: String, response: ServiceResponse, duration: Duration) {
        Counter(
            label: prefix + "requests_total", dimensions: [("route", route), ("code", String(response.status))],
            factory: factory
        ).increment()
        Timer(label: prefix + "request_duration_seconds", dimensions: [("route", route)], factory: factory)
            .recordNanoseconds(Int64(duration / .nanoseconds(1)))
        if let cache = response.header("X-Magpie-Cache") {
            Counter(label: prefix + "variant_cache_total", dimensions: [("result", cache)], factory: factory)
                .increment()
        }
    }

    /// A request refused before any work, by reason.
    func refused(_ error: ServiceError) {
        let reason: String
        switch error {
        case .busy: reason = "busy"
        case .badSignature: reason = "signature"
        case .badSecret: reason = "secret"
        case .expired: reason = "expired"
        case .sourceDenied: reason = "source"
        case .malformedPath, .badOption, .tooLarge, .notFound, .forbiddenOption: reason = "request"
        case .methodNotAllowed: reason = "method"
        case .requestTimeout: reason = "timeout"
        default: return
        }
        Counter(label: prefix + "rejections_total", dimensions: [("reason", reason)], factory: factory).increment()
    }
}
