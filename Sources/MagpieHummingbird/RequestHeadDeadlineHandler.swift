import NIOCore
import NIOHTTPTypes

/// One connection's side of ``ConnectionGuard``: between requests (from accept, and from the end
/// of each response until the next request head) the connection is waiting, a deadline runs and
/// the guard may close it to admit another; from a request head to the end of its response it is
/// busy. Pipelined heads are counted, so a connection is waiting only when every head it sent has
/// had its response.
final class RequestHeadDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let `guard`: ConnectionGuard
    /// Request heads read whose response has not ended.
    private var unanswered = 0
    /// When the connection began to wait for a request head; `nil` while busy.
    private var waitingSince: NIODeadline?
    /// One timer at a time, not one per request: it fires at the deadline of the wait it was
    /// set for, and if the connection has been busy since, it is set again only for a later wait.
    private var timer: Scheduled<Void>?
    private var active = false

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
        if waitingSince != nil { stopWaiting(context) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            unanswered += 1
            if waitingSince != nil { stopWaiting(context) }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data), unanswered > 0 {
            unanswered -= 1
            if unanswered == 0, active { startWaiting(context) }
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
