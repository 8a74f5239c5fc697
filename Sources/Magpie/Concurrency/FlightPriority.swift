/// The priority of work several callers share (a download, a retrieval that later callers join):
/// the highest any of them asked for, rising while the work waits. Where it waits for a slot
/// (``AsyncLimiter``), the highest goes first, then the earliest; so a prefetch that a user's
/// request joins moves ahead of the prefetches still queued, as Nuke's and SDWebImage's queues do.
///
/// Work started from inside other shared work takes that work's priority as a source
/// (``current``, a task-local the ``Coalescer`` sets in its flights): a retrieval's download
/// rises when a later caller joins the retrieval.
final class FlightPriority: Sendable {
    private struct State {
        var own: UInt8
        var sources: [FlightPriority] = []
    }
    private let state: Locked<State>

    /// The priority of the shared work the current task runs, if it runs any.
    @TaskLocal static var current: FlightPriority?

    init(_ priority: TaskPriority, source: FlightPriority? = nil) {
        state = Locked(State(own: priority.rawValue, sources: source.map { [$0] } ?? []))
    }

    /// Another caller's priority: the work's rises to it (never falls), and to `source`'s.
    func join(_ priority: TaskPriority, source: FlightPriority? = nil) {
        state.withLock { s in
            s.own = max(s.own, priority.rawValue)
            if let source, source !== self, !s.sources.contains(where: { $0 === source }) { s.sources.append(source) }
        }
    }

    /// The highest priority asked for, sources included (`TaskPriority.rawValue`: high is 25,
    /// medium 21, low 17, background 9).
    var value: UInt8 { value(depth: 0) }

    private func value(depth: Int) -> UInt8 {
        let (own, sources) = state.withLock { ($0.own, $0.sources) }
        // Sources are the work that started this one, a short chain; the bound only guards it.
        guard depth < 8 else { return own }
        return sources.reduce(own) { max($0, $1.value(depth: depth + 1)) }
    }
}
