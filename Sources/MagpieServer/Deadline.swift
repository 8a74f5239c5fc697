import Dispatch
import MagpieImage

/// Runs work with a deadline, answering the moment it passes even when the work does not stop at
/// once (a decode on a worker finishes in its own time; its caller need not wait for it).
///
/// The deadline is a Dispatch timer source, cancelled (and freed) the moment the work ends. Not
/// `Task.sleep`: a cancelled sleep keeps its task and timer until the time it was asked to sleep
/// for has passed (swiftlang/swift#60441), so a server answering thousands of requests a second
/// with a 20-second deadline held every request's sleep for 20 s, and grew by ~100 MB.
enum Deadline {
    /// The work's value, or `nil` when `seconds` passed first (the work is then cancelled). A
    /// cancelled caller cancels the work and gets `nil` too.
    static func run<T: Sendable>(
        seconds: Double, _ work: @escaping @Sendable () async -> T
    ) async -> T? {
        let state = Locked(State<T>())
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
                let timer = Timer(seconds: seconds) { finish(state, with: nil) }
                let worker = Task { finish(state, with: await work()) }
                let ended = state.withLock { s -> T?? in
                    if let outcome = s.outcome { return outcome }
                    s.worker = worker
                    s.timer = timer
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
        var worker: Task<Void, Never>?
        var timer: Timer?
        /// What ended the wait, kept when it came before the continuation was stored.
        var outcome: T??
    }

    /// Ends the wait with `value` (`nil`: the deadline or a cancellation) unless already ended, and
    /// cancels the work and the timer.
    private static func finish<T: Sendable>(_ state: Locked<State<T>>, with value: T?) {
        let (continuation, worker, timer) = state.withLock { s in
            guard s.outcome == nil else {
                return (CheckedContinuation<T?, Never>?.none, Task<Void, Never>?.none, Timer?.none)
            }
            s.outcome = .some(value)
            defer { (s.continuation, s.worker, s.timer) = (nil, nil, nil) }
            return (s.continuation, s.worker, s.timer)
        }
        worker?.cancel()
        timer?.cancel()
        continuation?.resume(returning: value)
    }

    /// A one-shot Dispatch timer that fires `handler` after `seconds` unless cancelled first.
    /// Cancelling it removes it from Dispatch's timer list and releases the handler at once.
    final class Timer: @unchecked Sendable {
        /// One serial queue for every deadline: a handler only resumes a continuation.
        private static let queue = DispatchQueue(label: "magpie.deadline")
        private let source: any DispatchSourceTimer

        init(seconds: Double, handler: @escaping @Sendable () -> Void) {
            source = DispatchSource.makeTimerSource(queue: Self.queue)
            source.schedule(
                deadline: .now() + .nanoseconds(Int(max(0, min(seconds, 1e9)) * 1e9)), leeway: .milliseconds(10))
            source.setEventHandler(handler: handler)
            source.activate()
        }

        func cancel() { source.cancel() }
    }
}
