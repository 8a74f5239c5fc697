import Tracing

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Downloads in traces: a `magpie.download` client span per call (OpenTelemetry's HTTP client
/// attributes, and whether the call joined another caller's download), a no-op until the
/// application bootstraps a tracer.
extension ImageDownloader {
    /// Downloads `url`, sharing the request with concurrent callers asking for the same resource.
    /// - Parameters:
    ///   - url: what to fetch, through the transport of its scheme.
    ///   - options: this download's headers, timeout, priority, retries and validators.
    ///   - progress: Body bytes received and expected, reported to every caller as they arrive,
    ///     on the thread that read them (for HTTP, the client's event loop): keep it short, and
    ///     yield into an `AsyncStream` for anything slower.
    /// - Throws: ``ImageDownloadError``, or `CancellationError` when the calling task is cancelled.
    public func download(
        _ url: URL, options: DownloadOptions = DownloadOptions(),
        progress: (@Sendable (_ received: Int, _ expected: Int?) -> Void)? = nil
    ) async throws -> ImageDownloadResult {
        try await withSpan("magpie.download", ofKind: .client) { span in
            span.attributes["url.scheme"] = url.scheme ?? ""
            span.attributes["server.address"] = url.host(percentEncoded: false) ?? ""
            do {
                let result = try await downloadInSpan(url, options: options, progress: progress)
                span.attributes["http.response.status_code"] = result.statusCode
                span.attributes["http.response.body.size"] = result.data.count
                span.attributes["magpie.download.coalesced"] = result.coalesced
                if result.resumedBytes > 0 { span.attributes["magpie.download.resumed_bytes"] = result.resumedBytes }
                return result
            } catch let error as ImageDownloadError {
                if case .badStatus(let code, _) = error { span.attributes["http.response.status_code"] = code }
                throw error
            }
        }
    }

    /// Adds the current trace context's fields (`traceparent`, `tracestate`) to `headers`.
    static func injectTraceContext(into headers: inout [HTTPHeaderField]) {
        guard let context = ServiceContext.current else { return }
        InstrumentationSystem.instrument.inject(context, into: &headers, using: HeaderInjector())
    }

    struct HeaderInjector: Injector {
        func inject(_ value: String, forKey key: String, into carrier: inout [HTTPHeaderField]) {
            carrier.set(key, value)
        }
    }
}
