import MagpieImage

/// Runs work with a deadline, answering the moment it passes even when the work does not stop at
/// once (a decode on a worker finishes in its own time; its caller need not wait for it).
enum Deadline {
    /// The work's value, or `nil` when `seconds` passed first (the work is then cancelled). A
    /// cancelled caller cancels the work and gets `nil` too.
    static func run<T: Sendable>(
        seconds: Double, _ work: @escaping @Sendable () async -> T
    ) async -> T? {
        let state = Locked(State<T>())
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
                let worker = Task { finish(state, with: await work()) }
                let timer = Task {
                    try? await Task.sleep(for: .seconds(seconds))
                    finish(state, with: nil)
                }
                let ended = state.withLock { s -> T?? in
                    if let outcome = s.outcome { return outcome }
                    s.tasks = [worker, timer]
                    s.continuation = continuation
                    return nil
                }
                if let outcome = ended {  // ended before the wait was set up
                    worker.cancel()
                    timer.cancel()
                    continuation.resume(returning: outcome)
                }
            }
        } onCancel: {
            finish(state, with: nil)
        }
    }

    private struct State<T: Sendable>: Sendable {
        var continuation: CheckedContinuation<T?, Never>?
        var tasks: [Task<Void, Never>] = []
        /// What ended the wait, kept when it came before the continuation was stored.
        var outcome: T??
    }

    /// Ends the wait with `value` (`nil`: the deadline or a cancellation) unless already ended, and
    /// cancels whatever is still running.
    private static func finish<T: Sendable>(_ state: Locked<State<T>>, with value: T?) {
        let (continuation, tasks) = state.withLock { s -> (CheckedContinuation<T?, Never>?, [Task<Void, Never>]) in
            guard s.outcome == nil else { return (nil, []) }
            s.outcome = .some(value)
            defer {
                s.continuation = nil
                s.tasks = []
            }
            return (s.continuation, s.tasks)
        }
        for task in tasks { task.cancel() }
        continuation?.resume(returning: value)
    }
}
