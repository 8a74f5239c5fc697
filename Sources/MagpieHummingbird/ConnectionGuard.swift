import HummingbirdCore
import NIOCore
import Synchronization

/// What bounds a client connection before it has asked for anything, against clients that
/// connect and send nothing, or trickle a request head a byte at a time, to hold every place:
///
/// - **A request-head deadline:** from accept, or from the end of the previous response on a
///   kept-alive connection, a complete request head must arrive within `readRequestTimeout`, or
///   the connection is closed (as Go's `ReadHeaderTimeout`, which imgproxy's
///   `IMGPROXY_READ_REQUEST_TIMEOUT` sets, and nginx's `client_header_timeout`). Bytes that do
///   not complete a head do not extend it.
/// - **Reuse at the cap:** at `maxConnections`, the connection that has waited longest for a
///   request head (new, or kept alive after its response) is closed to admit the next one, as
///   nginx reuses such connections when it runs out, rather than new clients waiting unaccepted
///   behind idle ones. Connections with a request in progress are never closed for this; when
///   every one is busy, new ones wait in the listen backlog.
///
/// - **A response-write deadline** (`writeResponseTimeout`, when given): from a response's head to
///   its end written, or the connection is closed (Go's `WriteTimeout`, nginx's `send_timeout`).
///
/// One guard per listener: give ``availableConnections`` to the server's configuration and
/// ``channelHandlers()`` to `HTTP1Channel.Configuration.additionalChannelHandlers`.
public final class ConnectionGuard: Sendable {
    public let maxConnections: Int
    public let readRequestTimeout: TimeAmount
    /// The time a response gets to be written whole; `nil`: no bound.
    public let writeResponseTimeout: TimeAmount?

    private struct State {
        /// Connections accepted and not yet closed (counted by the listener's handler).
        var open = 0
        /// Connections waiting for a request head, with the stamp of when they began to wait.
        var waiting: [ObjectIdentifier: (channel: any Channel, stamp: UInt64)] = [:]
        /// `waiting` in the order they began to wait; entries whose stamp no longer matches are
        /// stale and skipped (a connection that got its head, or began to wait again).
        var order = CircularBuffer<(id: ObjectIdentifier, stamp: UInt64)>()
        var nextStamp: UInt64 = 0
        /// Connections closed to admit new ones, and for a late request head.
        var reused = 0
        var timedOut = 0
        var writesTimedOut = 0
    }
    private let state = Mutex(State())

    /// - Parameters:
    ///   - maxConnections: client connections open at once (at least 1).
    ///   - readRequestTimeout: the time a connection gets to send a complete request head.
    ///   - writeResponseTimeout: the time a response gets to be written whole (`nil`: no bound).
    public init(maxConnections: Int, readRequestTimeout: TimeAmount, writeResponseTimeout: TimeAmount? = nil) {
        precondition(maxConnections > 0 && readRequestTimeout.nanoseconds > 0)
        precondition((writeResponseTimeout?.nanoseconds ?? 1) > 0)
        self.maxConnections = maxConnections
        self.readRequestTimeout = readRequestTimeout
        self.writeResponseTimeout = writeResponseTimeout
    }

    /// For `ServerConfiguration.availableConnectionsDelegate`.
    public var availableConnections: some AvailableConnectionsDelegate { Delegate(guard: self) }

    /// For `HTTP1Channel.Configuration.additionalChannelHandlers` (a new handler per connection).
    public func channelHandlers() -> [any RemovableChannelHandler] {
        [ConnectionDeadlineHandler(guard: self)]
    }

    /// Connections open now, and how many of them wait for a request head.
    public var counts: (open: Int, waiting: Int) { state.withLock { ($0.open, $0.waiting.count) } }
    /// Connections closed so far to admit new ones at the cap, and for a request head that did
    /// not arrive in time.
    public var closed: (reused: Int, timedOut: Int) { state.withLock { ($0.reused, $0.timedOut) } }
    /// Connections closed because a response was not written in time.
    public var writesTimedOut: Int { state.withLock { $0.writesTimedOut } }

    // MARK: the connection's handler reports

    func beganWaiting(_ channel: any Channel) {
        state.withLock { s in
            let stamp = s.nextStamp
            s.nextStamp += 1
            let id = ObjectIdentifier(channel)
            s.waiting[id] = (channel, stamp)
            s.order.append((id, stamp))
            // Stale entries pile up only while connections keep changing state; compact then.
            if s.order.count > 2 * s.waiting.count + 64 {
                let live = s.waiting
                s.order = CircularBuffer(s.order.filter { live[$0.id]?.stamp == $0.stamp })
            }
        }
    }

    func stoppedWaiting(_ channel: any Channel) {
        _ = state.withLock { $0.waiting.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    func timedOut() { state.withLock { $0.timedOut += 1 } }
    func writeTimedOut() { state.withLock { $0.writesTimedOut += 1 } }

    // MARK: the listener's handler asks

    fileprivate func opened() { state.withLock { $0.open += 1 } }
    fileprivate func closedOne() { state.withLock { $0.open -= 1 } }

    /// Whether the listener may accept another connection now; at the cap, closes the
    /// connection that has waited longest for a request head, and the listener accepts again
    /// once it has closed.
    fileprivate func admits() -> Bool {
        let victim = state.withLock { s -> (any Channel)? in
            guard s.open >= maxConnections else { return nil }
            while let oldest = s.order.popFirst() {
                guard let entry = s.waiting[oldest.id], entry.stamp == oldest.stamp else { continue }
                s.waiting[oldest.id] = nil
                s.reused += 1
                return entry.channel
            }
            return nil
        }
        guard let victim else { return state.withLock { $0.open < maxConnections } }
        victim.close(promise: nil)
        return false
    }

    private struct Delegate: AvailableConnectionsDelegate {
        let `guard`: ConnectionGuard
        mutating func connectionOpened() { self.guard.opened() }
        mutating func connectionClosed() { self.guard.closedOne() }
        func isAcceptingNewConnections() -> Bool { self.guard.admits() }
    }
}
