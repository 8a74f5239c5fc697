import NIOCore

/// The response-write deadline (``ConnectionGuard/writeResponseTimeout``): a response is being
/// written from its head until its end is written and the client has taken the bytes (the channel's
/// outbound buffer is back under its high-water mark); one written for longer than the timeout,
/// or a client that takes nothing for that long, closes the connection (as Go's `WriteTimeout`,
/// which imgproxy's `IMGPROXY_WRITE_RESPONSE_TIMEOUT` sets, and nginx's `send_timeout`). A client
/// that stops reading a large answer cannot hold the connection and the answer's buffers longer.
///
/// Nothing per response but two counts: one timer, set when a response begins and none is set,
/// judges at the deadline whether the response that was being written then is still unfinished
/// (closed), whether a later one is (set again for it), or whether nothing is (stopped). So a stall
/// is closed between one and two timeouts after the response began; a slow client's lack of
/// writability is timed from when the buffer filled.
extension ConnectionDeadlineHandler {
    func responseBegan(_ context: ChannelHandlerContext) {
        responsesBegun += 1
        guard writeTimer == nil, let timeout = self.guard.writeResponseTimeout else { return }
        armWrite(context, at: .now() + timeout)
    }

    func writabilityChanged(_ context: ChannelHandlerContext) {
        guard self.guard.writeResponseTimeout != nil else { return }
        if context.channel.isWritable {
            unwritableSince = nil
        } else if unwritableSince == nil {
            unwritableSince = .now()
            if writeTimer == nil, let timeout = self.guard.writeResponseTimeout {
                armWrite(context, at: .now() + timeout)
            }
        }
    }

    private func armWrite(_ context: ChannelHandlerContext, at deadline: NIODeadline) {
        writeArmedFor = responsesBegun
        writeTimer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            writeTimer = nil
            guard active, let timeout = self.guard.writeResponseTimeout else { return }
            let now = NIODeadline.now()
            if let since = unwritableSince {
                // The client has taken nothing for a while: closed when that while is the timeout.
                guard now >= since + timeout else { return armWrite(context, at: since + timeout) }
                return writeTimedOut(context)
            }
            if responsesEnded < writeArmedFor { return writeTimedOut(context) }
            // A later response is being written: its own timeout from now.
            if responsesEnded < responsesBegun { armWrite(context, at: now + timeout) }
        }
    }

    private func writeTimedOut(_ context: ChannelHandlerContext) {
        self.guard.writeTimedOut()
        context.close(promise: nil)
    }
}
