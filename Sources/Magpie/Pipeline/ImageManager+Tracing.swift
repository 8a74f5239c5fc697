import Tracing

/// Decoding and processing in traces: `magpie.process` over a processor's run, with
/// `magpie.decode` inside it over the decodes it made (``DecodeTiming``), and `magpie.encode`
/// over an encode; no-ops until the application bootstraps a tracer.
extension ImageManager {
    /// A span's time, as ``DecodeTiming`` and the wall clock give it.
    struct WallInstant: TracerInstant {
        let nanosecondsSinceEpoch: UInt64
        static func < (a: Self, b: Self) -> Bool { a.nanosecondsSinceEpoch < b.nanosecondsSinceEpoch }
        static var now: Self { Self(nanosecondsSinceEpoch: DecodeTiming.wallNanoseconds()) }
    }

    /// Runs `work` (a processor's run, on the processing executor, which gives it back with its
    /// decodes' timing) and records its spans once it is done.
    func tracedProcessing<T>(
        processor: String, _ work: () async throws -> (T, DecodeTiming)
    ) async throws -> T {
        let tracer = InstrumentationSystem.tracer
        let span = tracer.startSpan("magpie.process", context: ServiceContext.current ?? .topLevel, at: WallInstant.now)
        if !processor.isEmpty { span.attributes["magpie.processor"] = processor }
        do {
            let (value, timing) = try await work()
            if let first = timing.firstStart, let last = timing.lastEnd {
                let decode = tracer.startSpan(
                    "magpie.decode", context: span.context, at: WallInstant(nanosecondsSinceEpoch: first))
                decode.attributes["magpie.decode.count"] = timing.decodes
                decode.attributes["magpie.decode.nanoseconds"] = Int(timing.total)
                decode.end(at: WallInstant(nanosecondsSinceEpoch: last))
            }
            span.end(at: WallInstant.now)
            return value
        } catch {
            span.recordError(error)
            span.setStatus(SpanStatus(code: .error))
            span.end(at: WallInstant.now)
            throw error
        }
    }

    /// An encode made in a processing job, as a `magpie.encode` span once it is done.
    func traceEncode(from start: UInt64, to end: UInt64) {
        let span = InstrumentationSystem.tracer.startSpan(
            "magpie.encode", context: ServiceContext.current ?? .topLevel,
            at: WallInstant(nanosecondsSinceEpoch: start))
        span.end(at: WallInstant(nanosecondsSinceEpoch: end))
    }
}
