/// Work over many items with at most `limit` running at once: the one bounded task-group loop
/// (the prefetcher, the CLI and the benchmarks use it).
package enum BoundedConcurrency {
    /// Runs `body` for each index in `0..<count`, at most `limit` at once, starting them in order.
    /// `each` receives every result on the calling task as it finishes. Once the calling task is
    /// cancelled nothing more starts, and `notStarted` receives each index left.
    package static func forEach<R: Sendable>(
        count: Int, limit: Int, _ body: @escaping @Sendable (Int) async -> R, each: (Int, R) -> Void,
        notStarted: (Int) -> Void = { _ in }
    ) async {
        await withTaskGroup(of: (Int, R).self) { group in
            var next = 0
            func launch() {
                guard next < count else { return }
                let index = next
                next += 1
                group.addTask { (index, await body(index)) }
            }
            for _ in 0..<min(max(1, limit), count) { launch() }
            while let (index, result) = await group.next() {
                each(index, result)
                if Task.isCancelled {
                    while next < count {
                        notStarted(next)
                        next += 1
                    }
                } else {
                    launch()
                }
            }
        }
    }

    /// Runs `body` for each index in `0..<count`, at most `limit` at once; the first error
    /// cancels the rest and is thrown.
    package static func forEach(count: Int, limit: Int, _ body: @escaping @Sendable (Int) async throws -> Void)
        async throws
    {
        try await withThrowingTaskGroup(of: Void.self) { group in
            var next = 0
            func launch() {
                guard next < count else { return }
                let index = next
                next += 1
                group.addTask { try await body(index) }
            }
            for _ in 0..<min(max(1, limit), count) { launch() }
            while try await group.next() != nil { launch() }
        }
    }
}
