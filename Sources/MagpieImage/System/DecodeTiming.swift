#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// When the decodes inside a processing step ran, for whoever wants decoding told apart from the
/// rest (the pipeline's traces): ``measuring(_:)`` collects, on the calling thread, the wall-clock
/// interval of every decode its body makes (a still, each frame of an animation). Without it the
/// decoders record nothing. One per call and thread, so it needs no lock.
public final class DecodeTiming: @unchecked Sendable {
    /// Nanoseconds since 1970 when the first decode began and the last one ended; nil with none.
    public private(set) var firstStart: UInt64?
    public private(set) var lastEnd: UInt64?
    /// Nanoseconds spent decoding, all decodes together, and how many there were.
    public private(set) var total: UInt64 = 0
    public private(set) var decodes = 0

    @TaskLocal static var current: DecodeTiming?

    /// `body`'s result and its decodes' timing.
    public static func measuring<T>(_ body: () throws -> T) rethrows -> (T, DecodeTiming) {
        let timing = DecodeTiming()
        let value = try $current.withValue(timing) { try body() }
        return (value, timing)
    }

    /// Runs one decode, recording its interval when someone measures.
    static func record<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        guard let timing = current else { return try body() }
        let start = wallNanoseconds()
        defer {
            let end = wallNanoseconds()
            if timing.firstStart == nil { timing.firstStart = start }
            timing.lastEnd = end
            timing.total += end &- start
            timing.decodes += 1
        }
        return try body()
    }

    /// The wall clock, in nanoseconds since 1970 (what trace spans are stamped with).
    public static func wallNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}
