#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// When and how often a failed download is tried again.
///
/// Only transient failures are retried: connection failures, timeouts, 5xx and 429 (see
/// ``ImageDownloadError/isTransient``); never other 4xx, bodies that are not images, or
/// cancellation. A `Retry-After` header (seconds or an HTTP date) sets the delay when it asks for
/// longer than the back-off, up to `maxRetryAfter`.
public struct RetryStrategy: Sendable, Hashable {
    public enum Backoff: Sendable, Hashable {
        /// Retry at once.
        case immediate
        /// The same delay before every retry.
        case fixed(Duration)
        /// `base`, 2 × `base`, 4 × `base`… capped at `maximum`.
        case exponential(base: Duration, maximum: Duration)

        /// Doubling from `base`, capped at 30 s.
        public static func exponential(_ base: Duration) -> Backoff { .exponential(base: base, maximum: .seconds(30)) }
    }

    /// Retries after the first attempt.
    public var maxRetries: Int
    public var backoff: Backoff
    /// Fraction of each delay drawn at random (0: none; 1: anywhere from 0 to the full delay),
    /// so that clients who failed together do not retry together.
    public var jitter: Double
    public var honorsRetryAfter: Bool
    /// Longest `Retry-After` honoured; a longer one fails the download instead of waiting.
    public var maxRetryAfter: Duration

    public init(
        maxRetries: Int, backoff: Backoff = .exponential(.milliseconds(200)), jitter: Double = 0.5,
        honorsRetryAfter: Bool = true, maxRetryAfter: Duration = .seconds(60)
    ) {
        self.maxRetries = max(0, maxRetries)
        self.backoff = backoff
        self.jitter = min(1, max(0, jitter))
        self.honorsRetryAfter = honorsRetryAfter
        self.maxRetryAfter = maxRetryAfter
    }

    /// `count` retries with the default exponential back-off.
    public static func times(_ count: Int) -> RetryStrategy { RetryStrategy(maxRetries: count) }

    /// The delay before retry number `retry` (1 for the first) after `error`; `nil` when it
    /// should not be retried.
    public func delay(beforeRetry retry: Int, after error: any Error, randomUnit: Double = Double.random(in: 0..<1))
        -> Duration?
    {
        guard retry <= maxRetries, let failure = error as? ImageDownloadError, failure.isTransient else { return nil }
        var delay: Duration
        switch backoff {
        case .immediate: delay = .zero
        case .fixed(let d): delay = d
        case .exponential(let base, let maximum):
            let factor = Double(1 << min(30, retry - 1))
            delay = min(maximum, base * factor)
        }
        delay = delay * (1 - jitter * randomUnit)
        if honorsRetryAfter, case .badStatus(_, let after?) = failure {
            if after > maxRetryAfter { return nil }
            delay = max(delay, after)
        }
        return delay
    }

    /// Parses a `Retry-After` value: delta-seconds, or an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`)
    /// measured from `now`. Dates in the past give zero.
    public static func parseRetryAfter(_ value: String, now: Date) -> Duration? {
        let trimmed = value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        if let seconds = Int(trimmed) { return seconds >= 0 ? .seconds(seconds) : nil }
        guard let date = HTTPDate.parse(trimmed) else { return nil }
        return .milliseconds(Int64(max(0, date.timeIntervalSince(now)) * 1000))
    }
}
