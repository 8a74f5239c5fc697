import Testing

@testable import Magpie

/// Many tasks joining, leaving and cancelling shared flights and limited sections at once. Runs
/// under ThreadSanitizer in CI (the "StressTests" filter).
@Suite struct ConcurrencyStressTests {
    @Test func coalescerAndLimiterKeepTheirInvariants() async throws {
        let coalescer = Coalescer<Int, Int>()
        let limiter = AsyncLimiter<Int>(limit: 3)
        // Magpie's pthread lock: TSan sees it (Synchronization's Mutex on Linux it does not).
        let running = Locked<(now: [Int: Int], peak: Int, runs: Int)>(([:], 0, 0))
        await withTaskGroup(of: Void.self) { group in
            for i in 0..<3000 {
                group.addTask {
                    let key = i % 23
                    let task = Task {
                        try await coalescer.value(for: key) { context in
                            try await limiter.withPermit(for: key % 3) {
                                running.withLock { r in
                                    r.now[key % 3, default: 0] += 1
                                    r.peak = max(r.peak, r.now[key % 3]!)
                                    r.runs += 1
                                }
                                defer { running.withLock { $0.now[key % 3]! -= 1 } }
                                context.report(1, 2)
                                await Task.yield()
                                return key * 10
                            }
                        }
                    }
                    if i % 7 == 0 { task.cancel() }
                    if let result = try? await task.value {
                        #expect(result.value == key * 10)
                    }
                }
            }
        }
        let r = running.withLock { $0 }
        #expect(r.peak <= 3, "the limiter let \(r.peak) run at once")
        #expect(r.runs > 0 && r.runs < 3000, "flights were shared: \(r.runs) runs for 3000 callers")
        #expect(coalescer.inFlight == 0 && coalescer.waiting == 0)
        for k in 0..<3 { #expect(limiter.load(for: k) == (0, 0)) }
    }
}
