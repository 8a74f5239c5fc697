/// At most `limit` tasks in a section at once: an ``AsyncLimiter`` with one key (decoding, the
/// prefetcher's downloads). Waiting suspends, never blocks; waiters go by priority, then first come, first served.
final class AsyncSemaphore: Sendable {
    private let limiter: AsyncLimiter<Bool>

    init(limit: Int) { limiter = AsyncLimiter(limit: limit) }

    var limit: Int { limiter.limit }
    /// Tasks inside, and tasks waiting to enter.
    var load: (running: Int, waiting: Int) { limiter.load(for: true) }

    /// Runs `body` once fewer than `limit` others are inside.
    func withPermit<T: Sendable>(priority: FlightPriority? = nil, _ body: () async throws -> T) async throws -> T {
        try await limiter.withPermit(for: true, priority: priority, body)
    }
}
