/// Shares one run of async work among the callers that ask for the same key while it is running.
///
/// The first caller starts the work in its own task; later callers join it. Each caller cancels
/// only itself (Swift task cancellation); the work is cancelled when its last caller leaves. The
/// flight is forgotten the moment it finishes, so a caller that arrives afterwards starts anew.
/// Progress reported by the work reaches every caller still waiting.
final class Coalescer<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    typealias Progress = @Sendable (_ received: Int, _ expected: Int?) -> Void

    /// What the shared work sees of its callers.
    struct Context: Sendable {
        /// Reports progress to every caller still waiting.
        let report: Progress
        /// Callers that have joined so far, the starter included.
        let callers: @Sendable () -> Int
        /// The highest priority of its callers so far (also ``FlightPriority/current`` in the work).
        let priority: FlightPriority
    }

    private struct Waiter {
        var continuation: CheckedContinuation<Value, any Error>
        var progress: Progress?
    }

    /// A flight's progress, reached by its reports without a lookup of the key.
    private struct ProgressState {
        /// Waiters that asked for progress: reports to nobody stop here.
        var listeners = 0
        var last: (received: Int, expected: Int?)?
    }

    private struct Flight {
        let id: UInt64
        let priority: FlightPriority
        var waiters: [UInt64: Waiter] = [:]
        var joined = 0
        var task: Task<Void, Never>?
        let progress = Locked(ProgressState())
    }

    private struct State {
        var flights: [Key: Flight] = [:]
        var nextID: UInt64 = 0
    }

    private enum Arrival {
        case cancelled
        case started(UInt64)
        case joined((received: Int, expected: Int?)?)
    }

    private let state = Locked(State())

    /// Flights running now.
    var inFlight: Int { state.withLock { $0.flights.count } }
    /// Callers waiting, over all flights.
    var waiting: Int { state.withLock { $0.flights.values.reduce(0) { $0 + $1.waiters.count } } }

    /// Raises the priority of the work running for `key` to `priority` (never lowers it), as a
    /// caller of that priority joining would; false when nothing runs for `key`.
    @discardableResult
    func raise(_ key: Key, to priority: TaskPriority) -> Bool {
        guard let flight = state.withLock({ $0.flights[key]?.priority }) else { return false }
        flight.join(priority)
        return true
    }

    /// The value of the work for `key`: joins the flight running for it, else starts `operation`.
    /// - Returns: the value, and whether this caller joined a flight another caller started.
    /// - Parameter priority: the priority of the task that runs the work (the caller's by default).
    func value(
        for key: Key, priority: TaskPriority? = nil, progress: Progress? = nil,
        operation: @escaping @Sendable (Context) async throws -> Value
    ) async throws -> (value: Value, joined: Bool) {
        let waiterID = state.withLock { s -> UInt64 in
            s.nextID += 1
            return s.nextID
        }
        let joined = Locked(false)
        let value = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                // The caller's priority, and the shared work it runs in (if any) as a source of it.
                let asked = priority ?? Task.currentPriority
                let parent = FlightPriority.current
                let arrival = state.withLock { s -> Arrival in
                    if Task.isCancelled { return .cancelled }
                    let waiter = Waiter(continuation: continuation, progress: progress)
                    if let i = s.flights.index(forKey: key) {
                        s.flights.values[i].waiters[waiterID] = waiter
                        s.flights.values[i].joined += 1
                        s.flights.values[i].priority.join(asked, source: parent)
                        let last = s.flights.values[i].progress.withLock { p in
                            if progress != nil { p.listeners += 1 }
                            return p.last
                        }
                        return .joined(last)
                    }
                    s.nextID += 1
                    var flight = Flight(id: s.nextID, priority: FlightPriority(asked, source: parent))
                    flight.waiters[waiterID] = waiter
                    flight.joined = 1
                    if progress != nil { flight.progress.withLock { $0.listeners = 1 } }
                    s.flights[key] = flight
                    return .started(flight.id)
                }
                switch arrival {
                case .cancelled:
                    continuation.resume(throwing: CancellationError())
                case .joined(let last):
                    joined.withLock { $0 = true }
                    if let last, let progress { progress(last.received, last.expected) }
                case .started(let flightID):
                    let task = Task(priority: priority) { await self.fly(key, flightID, operation) }
                    let orphaned = state.withLock { s -> Bool in
                        guard s.flights[key]?.id == flightID else { return true }
                        s.flights[key]!.task = task
                        return false
                    }
                    // Every caller left before the task was recorded.
                    if orphaned { task.cancel() }
                }
            }
        } onCancel: {
            let (waiter, task) = state.withLock { s -> (Waiter?, Task<Void, Never>?) in
                guard var flight = s.flights[key], let waiter = flight.waiters.removeValue(forKey: waiterID) else {
                    return (nil, nil)
                }
                if flight.waiters.isEmpty {
                    s.flights[key] = nil
                    return (waiter, flight.task)
                }
                if waiter.progress != nil { flight.progress.withLock { $0.listeners -= 1 } }
                s.flights[key] = flight
                return (waiter, nil)
            }
            task?.cancel()
            waiter?.continuation.resume(throwing: CancellationError())
        }
        return (value, joined.withLock { $0 })
    }

    private func fly(
        _ key: Key, _ flightID: UInt64, _ operation: @Sendable (Context) async throws -> Value
    ) async {
        let (progress, flightPriority) = state.withLock { s in
            s.flights[key].flatMap { $0.id == flightID ? ($0.progress, $0.priority) : nil } ?? (nil, nil)
        }
        // Every caller left before the work began: it is cancelled; any priority will do.
        let priority = flightPriority ?? FlightPriority(.low)
        let context = Context(
            report: { [weak self] received, expected in
                guard let progress else { return }
                let listeners = progress.withLock { p -> Int in
                    p.last = (received, expected)
                    return p.listeners
                }
                if listeners > 0 { self?.broadcast(key, flightID, received, expected) }
            },
            callers: { [weak self] in
                self?.state.withLock { s in s.flights[key].flatMap { $0.id == flightID ? $0.joined : nil } } ?? 0
            }, priority: priority)
        let result: Result<Value, any Error>
        do {
            result = .success(try await FlightPriority.$current.withValue(priority) { try await operation(context) })
        } catch {
            result = .failure(error)
        }
        let waiters = state.withLock { s -> [Waiter] in
            guard let flight = s.flights[key], flight.id == flightID else { return [] }
            s.flights[key] = nil
            return Array(flight.waiters.values)
        }
        for waiter in waiters { waiter.continuation.resume(with: result) }
    }

    private func broadcast(_ key: Key, _ flightID: UInt64, _ received: Int, _ expected: Int?) {
        let handlers = state.withLock { s -> [Progress] in
            guard let i = s.flights.index(forKey: key), s.flights.values[i].id == flightID else { return [] }
            return s.flights.values[i].waiters.values.compactMap(\.progress)
        }
        for handler in handlers { handler(received, expected) }
    }
}
