import Tracing

/// Requests in traces: a `magpie.request` server span around each answer, continuing the trace a
/// W3C `traceparent` names, so the cache reads, download, decode, processing and encode it causes
/// are its children; a no-op until the application bootstraps a tracer.
extension ImageService {
    func traced(_ request: ServiceRequest, _ answer: () async -> ServiceResponse) async -> ServiceResponse {
        let instrument = InstrumentationSystem.instrument
        if let tracer = instrument as? MagpieTracer { return await traced(request, by: tracer, answer) }
        var context = ServiceContext.current ?? .topLevel
        instrument.extract(request.headers, into: &context, using: HeaderExtractor())
        return await withSpan("magpie.request", context: context, ofKind: .server) { span in
            let response = await answer()
            guard span.isRecording else { return response }
            // Set once: each change of a span's attributes copies them.
            var attributes = SpanAttributes()
            Self.serverAttributes(request, response).forEach { attributes.set($0, value: $1) }
            span.attributes = attributes
            if response.status >= 500 { span.setStatus(SpanStatus(code: .error)) }
            return response
        }
    }

    /// The same with Magpie's own tracer, called directly: no existential span, no generic
    /// `withSpan`, and the attributes as fields rather than a dictionary (they were half of what a
    /// span cost a warm hit).
    private func traced(
        _ request: ServiceRequest, by tracer: MagpieTracer, _ answer: () async -> ServiceResponse
    ) async -> ServiceResponse {
        var context = ServiceContext.current ?? .topLevel
        tracer.extract(request.headers, into: &context, using: HeaderExtractor())
        let span = tracer.startSpan("magpie.request", context: context, ofKind: .server, at: DefaultTracerClock.now)
        defer { span.end(at: DefaultTracerClock.now) }
        let response = await ServiceContext.$current.withValue(span.context) { await answer() }
        if span.isSampled {
            span.setServerAttributes(Self.serverAttributes(request, response))
            if response.status >= 500 { span.setStatus(SpanStatus(code: .error)) }
        }
        return response
    }

    static func serverAttributes(_ request: ServiceRequest, _ response: ServiceResponse) -> ServerSpanAttributes {
        ServerSpanAttributes(
            // OpenTelemetry's name for a method it does not know; nothing a client sends is echoed.
            method: request.method == "GET" ? "GET" : request.method == "HEAD" ? "HEAD" : "_OTHER",
            statusCode: response.status, cache: response.header("X-Magpie-Cache"))
    }

    struct HeaderExtractor: Extractor {
        func extract(key: String, from carrier: [(name: String, value: String)]) -> String? {
            carrier.first { ASCII.equalIgnoringCase($0.name, key) }?.value
        }
    }
}
