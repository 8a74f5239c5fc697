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
    private var deadline: Scheduled<Void>?
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
        stopWaiting(context)
        active = false
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stopWaiting(context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            unanswered += 1
            stopWaiting(context)
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
        deadline?.cancel()
        self.guard.beganWaiting(context.channel)
        let channel = context.channel
        let guardRef = self.guard
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: self.guard.readRequestTimeout) {
            guardRef.stoppedWaiting(channel)
            guardRef.timedOut()
            channel.close(promise: nil)
        }
    }

    private func stopWaiting(_ context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        self.guard.stoppedWaiting(context.channel)
    }
}
