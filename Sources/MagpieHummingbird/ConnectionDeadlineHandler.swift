import NIOCore
import NIOHTTPTypes

/// One connection's side of ``ConnectionGuard``, both its deadlines in one handler (one more stage
/// in the pipeline costs every read, write and flush: a second handler for the write deadline, with
/// a promise per response to see its end written, was 6% of warm requests per second).
///
/// The request-head deadline: between requests (from accept, and from the end of each response
/// until the next request head) the connection is waiting, a deadline runs and the guard may close
/// it to admit another; from a request head to the end of its response it is busy. Pipelined heads
/// are counted, so a connection is waiting only when every head it sent has had its response.
///
/// The response-write deadline (``ConnectionGuard/writeResponseTimeout``, see
/// `ConnectionDeadlineHandler+Write.swift`).
final class ConnectionDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let `guard`: ConnectionGuard
    /// Request heads read whose response has not ended.
    private var unanswered = 0
    /// When the connection began to wait for a request head; `nil` while busy.
    private var waitingSince: NIODeadline?
    /// One timer at a time, not one per request: it fires at the deadline of the wait it was
    /// set for, and if the connection has been busy since, it is set again only for a later wait.
    private var timer: Scheduled<Void>?
    var active = false

    // The write deadline's state (ConnectionDeadlineHandler+Write.swift).
    /// Responses begun (heads written) and ended (ends written), counted.
    var responsesBegun = 0
    var responsesEnded = 0
    /// The responses begun when the write timer was set: if the last of them has not ended when it
    /// fires, it has been written for at least the timeout.
    var writeArmedFor = 0
    var writeTimer: Scheduled<Void>?
    /// Since when the channel's outbound buffer has been over its high-water mark (the client is not
    /// taking the bytes written); `nil` while writable.
    var unwritableSince: NIODeadline?

    init(guard: ConnectionGuard) { self.guard = `guard` }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { becomeActive(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        becomeActive(context)
        context.fireChannelActive()
    }

    private func becomeActive(_ context: ChannelHandlerContext) {
        guard !active else { return }
        active = true
        startWaiting(context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(context)
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        finish(context)
    }

    private func finish(_ context: ChannelHandlerContext) {
        active = false
        timer?.cancel()
        timer = nil
        writeTimer?.cancel()
        writeTimer = nil
        if waitingSince != nil { stopWaiting(context) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            unanswered += 1
            if waitingSince != nil { stopWaiting(context) }
        }
        context.fireChannelRead(data)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        writabilityChanged(context)
        context.fireChannelWritabilityChanged()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head:
            responseBegan(context)
        case .end:
            responsesEnded += 1
            if unanswered > 0 {
                unanswered -= 1
                if unanswered == 0, active { startWaiting(context) }
            }
        case .body:
            break
        }
        context.write(data, promise: promise)
    }

    private func startWaiting(_ context: ChannelHandlerContext) {
        let now = NIODeadline.now()
        waitingSince = now
        self.guard.beganWaiting(context.channel)
        if timer == nil { schedule(context, at: now + self.guard.readRequestTimeout) }
    }

    private func stopWaiting(_ context: ChannelHandlerContext) {
        waitingSince = nil
        self.guard.stoppedWaiting(context.channel)
    }

    private func schedule(_ context: ChannelHandlerContext, at deadline: NIODeadline) {
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            timer = nil
            guard active, let since = waitingSince else { return }
            let due = since + self.guard.readRequestTimeout
            guard NIODeadline.now() >= due else { return schedule(context, at: due) }
            stopWaiting(context)
            self.guard.timedOut()
            context.close(promise: nil)
        }
    }
}
