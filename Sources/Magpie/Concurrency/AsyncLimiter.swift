/// Bounds how many tasks run a section at once, per key (per host for downloads, one key for
/// decoding). Waiting suspends the task, never a thread; a freed slot goes to the waiter of the
/// highest priority as it stands then (a ``FlightPriority`` can rise while it waits), first come,
/// first served among equals and for waiters without one; a cancelled waiter leaves the queue with
/// `CancellationError`. Keys with nothing running and nobody waiting take no memory.
final class AsyncLimiter<Key: Hashable & Sendable>: Sendable {
    private struct Slot {
        var running = 0
        var waiters: [(id: UInt64, priority: FlightPriority?, continuation: CheckedContinuation<Void, any Error>)] = []
    }

    private struct State {
        var slots: [Key: Slot] = [:]
        var nextID: UInt64 = 0
    }

    /// Tasks that may run at once per key.
    let limit: Int
    private let state = Locked(State())

    init(limit: Int) {
        precondition(limit > 0, "a limiter needs room for at least one task")
        self.limit = limit
    }

    /// Runs `body` once fewer than `limit` others hold `key`.
    func withPermit<T: Sendable>(
        for key: Key, priority: FlightPriority? = nil, _ body: () async throws -> T
    ) async throws -> T {
        try await acquire(key, priority: priority)
        defer { release(key) }
        return try await body()
    }

    /// Tasks running and waiting under `key` right now.
    func load(for key: Key) -> (running: Int, waiting: Int) {
        state.withLock { s in (s.slots[key]?.running ?? 0, s.slots[key]?.waiters.count ?? 0) }
    }

    func acquire(_ key: Key, priority: FlightPriority? = nil) async throws {
        let id: UInt64? = state.withLock { s in
            if s.slots[key, default: Slot()].running < limit {
                s.slots[key, default: Slot()].running += 1
                return nil
            }
            s.nextID += 1
            return s.nextID
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Cancelled before queueing: the handler below found nothing to resume.
                let cancelled = state.withLock { s -> Bool in
                    if Task.isCancelled { return true }
                    s.slots[key, default: Slot()].waiters.append((id, priority, continuation))
                    return false
                }
                if cancelled { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let waiter = state.withLock { s -> CheckedContinuation<Void, any Error>? in
                guard let i = s.slots[key]?.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                let waiter = s.slots[key]!.waiters.remove(at: i).continuation
                if s.slots[key]!.running == 0 && s.slots[key]!.waiters.isEmpty { s.slots[key] = nil }
                return waiter
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    func release(_ key: Key) {
        let next = state.withLock { s -> CheckedContinuation<Void, any Error>? in
            guard var slot = s.slots[key] else { return nil }
            if slot.waiters.isEmpty {
                slot.running -= 1
                s.slots[key] = slot.running == 0 ? nil : slot
                return nil
            }
            // The permit passes straight to the waiter of the highest priority now, the earliest
            // of them (waiters are in arrival order). A scan: queues are short next to a download.
            var best = 0
            var top = slot.waiters[0].priority?.value ?? 0
            for i in slot.waiters.indices.dropFirst() {
                let p = slot.waiters[i].priority?.value ?? 0
                if p > top { (best, top) = (i, p) }
            }
            let next = slot.waiters.remove(at: best).continuation
            s.slots[key] = slot
            return next
        }
        next?.resume()
    }
}
