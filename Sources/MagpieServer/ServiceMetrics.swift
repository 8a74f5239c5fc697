import Metrics

/// What the service reports through swift-metrics (names prefixed `magpie_`, never labelled by
/// URL or host): requests by route and status code, their durations, requests in flight, variant
/// cache results, and refusals by reason.
struct ServiceMetrics: Sendable {
    let factory: any MetricsFactory
    let inFlight: Meter

    init(factory: any MetricsFactory) {
        self.factory = factory
        inFlight = Meter(label: "magpie_requests_in_flight", factory: factory)
    }

    /// One request answered.
    func record(route: String, response: ServiceResponse, duration: Duration) {
        Counter(
            label: "magpie_requests_total", dimensions: [("route", route), ("code", String(response.status))],
            factory: factory
        ).increment()
        Timer(label: "magpie_request_duration_seconds", dimensions: [("route", route)], factory: factory)
            .recordNanoseconds(Int64(duration / .nanoseconds(1)))
        if let cache = response.header("X-Magpie-Cache") {
            Counter(label: "magpie_variant_cache_total", dimensions: [("result", cache)], factory: factory).increment()
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
        Counter(label: "magpie_rejections_total", dimensions: [("reason", reason)], factory: factory).increment()
    }
}
