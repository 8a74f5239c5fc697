import Synchronization
import Testing

@testable import MagpieServer

/// The request deadline: the work's value when it ends first, `nil` (with the work cancelled)
/// when the time or the caller's cancellation comes first, and a timer that is gone the moment
/// it is cancelled, not an hour later.
@Suite struct DeadlineTests {
    final class Token: Sendable {}

    @Test func theWorksValueWhenItEndsFirst() async {
        let value = await Deadline.run(seconds: 3600) { 42 }
        #expect(value == 42)
    }

    @Test func nilAtTheDeadlineAndTheWorkIsCancelled() async {
        let gate = Gate()
        let sawCancellation = Mutex(false)
        let started = ContinuousClock.now
        let value = await Deadline.run(seconds: 0.05) { () async -> Int in
            await gate.wait()
            sawCancellation.withLock { $0 = Task.isCancelled }
            return 1
        }
        #expect(value == nil)
        #expect(ContinuousClock.now - started < .seconds(10))
        gate.open()
        await eventually("the work saw its cancellation") { sawCancellation.withLock { $0 } }
    }

    @Test func aCancelledCallerGetsNilAndCancelsTheWork() async {
        let gate = Gate()
        let entered = Gate()
        let sawCancellation = Mutex(false)
        let caller = Task {
            await Deadline.run(seconds: 3600) { () async -> Int in
                entered.open()
                await gate.wait()
                sawCancellation.withLock { $0 = Task.isCancelled }
                return 1
            }
        }
        await entered.wait()
        caller.cancel()
        #expect(await caller.value == nil)
        gate.open()
        await eventually("the work saw its cancellation") { sawCancellation.withLock { $0 } }
    }

    @Test func aTimerFiresOnce() async {
        let fired = Mutex(0)
        let timer = Deadline.Timer(seconds: 0.01) { fired.withLock { $0 += 1 } }
        await eventually("the timer fired") { fired.withLock { $0 } == 1 }
        timer.cancel()
        #expect(fired.withLock { $0 } == 1)
    }

    /// What `Task.sleep` does not do (swiftlang/swift#60441): a cancelled hour-long timer lets go
    /// of its handler, and whatever the handler holds, now.
    @Test func aCancelledTimerReleasesItsHandlerAtOnce() async {
        weak var held: Token?
        let timer: Deadline.Timer
        do {
            let token = Token()
            held = token
            timer = Deadline.Timer(seconds: 3600) { withExtendedLifetime(token) {} }
        }
        #expect(held != nil)
        timer.cancel()
        await eventually("the handler and its token were released") { held == nil }
        withExtendedLifetime(timer) {}  // the timer itself is still there: the cancellation freed them
    }
}
