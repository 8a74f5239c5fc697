import NIOCore
import NIOHTTPTypes

/// One connection's response-write deadline (``ConnectionGuard/writeResponseTimeout``): from a
/// response's head to the moment its end is written to the socket, at most the timeout, or the
/// connection is closed (as Go's `WriteTimeout`, which imgproxy's `IMGPROXY_WRITE_RESPONSE_TIMEOUT`
/// sets, and nginx's `send_timeout`). A client that stops reading a large answer cannot hold the
/// connection and the answer's buffers for longer.
final class ResponseWriteDeadlineHandler: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let `guard`: ConnectionGuard
    private let timeout: TimeAmount
    /// The deadline of the response being written; `nil` between responses.
    private var timer: Scheduled<Void>?
    /// Responses begun whose end is not yet on the socket (pipelining writes them one after another).
    private var writing = 0

    init(guard: ConnectionGuard, timeout: TimeAmount) { (self.guard, self.timeout) = (`guard`, timeout) }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head:
            writing += 1
            if timer == nil { arm(context) }
            context.write(data, promise: promise)
        case .end:
            let written = promise ?? context.eventLoop.makePromise()
            written.futureResult.hop(to: context.eventLoop).assumeIsolated().whenComplete { [self] _ in
                writing = max(0, writing - 1)
                timer?.cancel()
                timer = nil
                if writing > 0 { arm(context) }
            }
            context.write(data, promise: written)
        case .body:
            context.write(data, promise: promise)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    private func arm(_ context: ChannelHandlerContext) {
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [self] in
            timer = nil
            self.guard.writeTimedOut()
            context.close(promise: nil)
        }
    }
}
