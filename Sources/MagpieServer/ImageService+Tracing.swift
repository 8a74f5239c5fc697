import Tracing

/// Requests in traces: a `magpie.request` server span around each answer, continuing the trace a
/// W3C `traceparent` names, so the cache reads, download, decode, processing and encode it causes
/// are its children; a no-op until the application bootstraps a tracer.
extension ImageService {
    func traced(_ request: ServiceRequest, _ answer: () async -> ServiceResponse) async -> ServiceResponse {
        var context = ServiceContext.current ?? .topLevel
        InstrumentationSystem.instrument.extract(request.headers, into: &context, using: HeaderExtractor())
        return await withSpan("magpie.request", context: context, ofKind: .server) { span in
            // OpenTelemetry's name for a method it does not know; nothing a client sends is echoed.
            span.attributes["http.request.method"] =
                request.method == "GET" || request.method == "HEAD" ? request.method : "_OTHER"
            let response = await answer()
            span.attributes["http.response.status_code"] = response.status
            if let cache = response.header("X-Magpie-Cache") { span.attributes["magpie.cache"] = cache }
            if response.status >= 500 { span.setStatus(SpanStatus(code: .error)) }
            return response
        }
    }

    struct HeaderExtractor: Extractor {
        func extract(key: String, from carrier: [(name: String, value: String)]) -> String? {
            carrier.first { ASCII.equalIgnoringCase($0.name, key) }?.value
        }
    }
}
