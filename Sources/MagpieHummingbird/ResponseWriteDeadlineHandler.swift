import NIOCore
import NIOHTTPTypes

/// One connection's response-write deadline (``ConnectionGuard/writeResponseTimeout``): from a
/// response's head to the moment its end is written to the socket, at most the timeout, or the
/// connection is closed (as Go's `WriteTimeout`, which imgproxy's `IMGPROXY_WRITE_RESPONSE_TIMEOUT`
/// sets, and nginx's `send_timeout`). A client that stops reading a large answer cannot hold the
/// connection and the answer's buffers for longer. One timer at a time, not one per response (as
/// ``RequestHeadDeadlineHandler``): it fires at the deadline of the response it was set for, and
/// is set again only when a later response is still being written.
final class ResponseWriteDeadlineHandler: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let `guard`: ConnectionGuard
    private let timeout: TimeAmount
    /// When the response being written began (its head); `nil` between responses.
    private var writingSince: NIODeadline?
    /// Responses begun whose end is not yet on the socket (pipelining writes them one after another).
    private var writing = 0
    private var timer: Scheduled<Void>?
    private var removed = false

    init(guard: ConnectionGuard, timeout: TimeAmount) { (self.guard, self.timeout) = (`guard`, timeout) }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head:
            writing += 1
            if writingSince == nil { writingSince = .now() }
            if timer == nil, let since = writingSince { schedule(context, at: since + timeout) }
            context.write(data, promise: promise)
        case .end:
            let written = promise ?? context.eventLoop.makePromise()
            written.futureResult.assumeIsolated().whenComplete { [self] _ in
                writing = max(0, writing - 1)
                // The next pipelined response, if any, is measured from now.
                writingSince = writing > 0 ? .now() : nil
            }
            context.write(data, promise: written)
        case .body:
            context.write(data, promise: promise)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        removed = true
        timer?.cancel()
        timer = nil
    }

    private func schedule(_ context: ChannelHandlerContext, at deadline: NIODeadline) {
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            timer = nil
            guard !removed, let since = writingSince else { return }
            let due = since + timeout
            if due <= .now() {
                self.guard.writeTimedOut()
                context.close(promise: nil)
            } else {
                schedule(context, at: due)
            }
        }
    }
}
