import Tracing

/// Requests in traces: a `magpie.request` server span around each answer, continuing the trace a
/// W3C `traceparent` names, so the cache reads, download, decode, processing and encode it causes
/// are its children; a no-op until the application bootstraps a tracer.
extension ImageService {
    func traced(_ request: ServiceRequest, _ answer: () async -> ServiceResponse) async -> ServiceResponse {
        var context = ServiceContext.current ?? .topLevel
        InstrumentationSystem.instrument.extract(request.headers, into: &context, using: HeaderExtractor())
        return await withSpan("magpie.request", context: context, ofKind: .server) { span in
            let response = await answer()
            guard span.isRecording else { return response }
            // Set once: each change of a span's attributes copies them.
            var attributes = SpanAttributes()
            // OpenTelemetry's name for a method it does not know; nothing a client sends is echoed.
            attributes.set(
                "http.request.method",
                value: .string(request.method == "GET" || request.method == "HEAD" ? request.method : "_OTHER"))
            attributes.set("http.response.status_code", value: .int64(Int64(response.status)))
            if let cache = response.header("X-Magpie-Cache") { attributes.set("magpie.cache", value: .string(cache)) }
            span.attributes = attributes
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
