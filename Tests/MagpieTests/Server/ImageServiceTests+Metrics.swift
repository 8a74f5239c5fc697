import Foundation
import MagpieLoopback
import MagpieTestSupport
import Prometheus
import Testing

@testable import Magpie
@testable import MagpieServer

extension ImageServiceTests {
    @Test func requestsAreCountedByRouteCodeAndCacheResultNeverByURL() async throws {
        let h = try await Self.harness(Self.images)
        let registry = PrometheusCollectorRegistry()
        let service = ImageService(
            manager: h.service.manager, configuration: h.service.configuration,
            metrics: PrometheusMetricsFactory(registry: registry))
        for target in [h.target("w:10", "/a.jpg"), h.target("w:10", "/a.jpg"), h.target("w:10", "/missing"), "/health"]
        {
            _ = await service.respond(to: ServiceRequest(method: "GET", target: target))
        }
        _ = await service.respond(to: ServiceRequest(method: "GET", target: "/AAAA/w:10/plain/http://x/a.jpg"))
        let text = registry.emitToString()
        #expect(text.contains(#"magpie_requests_total{route="image",code="200"} 2"#), "\(text)")
        #expect(text.contains(#"magpie_requests_total{route="image",code="404"} 1"#))
        #expect(text.contains(#"magpie_requests_total{route="health",code="200"} 1"#))
        #expect(text.contains(#"magpie_variant_cache_total{result="miss"} 1"#))
        #expect(text.contains(#"magpie_variant_cache_total{result="hit"} 1"#))
        #expect(text.contains(#"magpie_rejections_total{reason="signature"} 1"#))
        #expect(text.contains("magpie_request_duration_seconds"))
        #expect(!text.contains("127.0.0.2") && !text.contains("a.jpg"))
        try await h.finish()
    }

    /// imgproxy's `IMGPROXY_PROMETHEUS_NAMESPACE`: the names' prefix, or none.
    @Test func metricNamesTakeTheNamespace() async throws {
        let h = try await Self.harness(Self.images)
        for (namespace, name) in [("imgproxy", "imgproxy_requests_total"), ("", "requests_total")] {
            let registry = PrometheusCollectorRegistry()
            var c = h.service.configuration
            c.metricsNamespace = namespace
            let service = ImageService(
                manager: h.service.manager, configuration: c, metrics: PrometheusMetricsFactory(registry: registry))
            _ = await service.respond(to: ServiceRequest(method: "GET", target: "/health"))
            let text = registry.emitToString()
            #expect(text.contains(name + #"{route="health",code="200"} 1"#), "\(text)")
            #expect(!text.contains("magpie_"), "\(text)")
        }
        for good in ["", "imgproxy", "a_b:c9", "_x"] {
            #expect(ServiceConfiguration.isMetricsNamespace(good), "\(good)")
        }
        for bad in ["9a", "a-b", "a b", "é", "a\n"] { #expect(!ServiceConfiguration.isMetricsNamespace(bad), "\(bad)") }
        try await h.finish()
    }
}
