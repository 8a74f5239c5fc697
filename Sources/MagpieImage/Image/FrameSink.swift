import Dispatch

/// Where processed frames go: straight into an animated encoder, or to one running on a queue of
/// its own at most two frames behind (so decoding the next frame overlaps encoding this one).
final class FrameSink {
    private let encoder: AnimationEncoder?
    private let pipe: Pipe?

    init(_ encoder: AnimationEncoder) {
        self.encoder = encoder
        pipe = nil
    }

    private init(pipe: Pipe) {
        encoder = nil
        self.pipe = pipe
    }

    static func threaded(_ encoder: AnimationEncoder) -> FrameSink {
        let pipe = Pipe(encoder)
        DispatchQueue(label: "magpie.animation-encoder").async { pipe.run() }
        return FrameSink(pipe: pipe)
    }

    func add(_ image: Image, delay: Duration) throws {
        if let encoder { return try encoder.add(image, delay: delay) }
        try pipe?.put(image, delay)
    }

    func finish() throws -> [UInt8] {
        if let encoder { return try encoder.finish() }
        return try pipe!.finish()
    }

    deinit { pipe?.close() }

    /// The frames between the decoding thread and the encoding one.
    private final class Pipe: @unchecked Sendable {
        private struct State {
            var queue: [(Image, Duration)] = []
            var closed = false
            var failure: (any Error)?
            var result: [UInt8]?
        }
        private let state = Locked(State())
        private let slots = DispatchSemaphore(value: 2)  // frames that may wait
        private let items = DispatchSemaphore(value: 0)  // frames waiting, and the close
        private let done = DispatchSemaphore(value: 0)
        private var finished = false
        private let encoder: AnimationEncoder  // used on the encoding queue alone once it runs

        init(_ encoder: AnimationEncoder) { self.encoder = encoder }

        /// The encoding queue: frames as they come (after a failure, taken and dropped), then the file.
        func run() {
            while true {
                items.wait()
                let next = state.withLock { s -> (frame: (Image, Duration)?, failed: Bool) in
                    s.queue.isEmpty ? (nil, s.failure != nil) : (s.queue.removeFirst(), s.failure != nil)
                }
                guard let frame = next.frame else {
                    // Closed: the file, unless something failed.
                    if !next.failed {
                        do {
                            let bytes = try encoder.finish()
                            state.withLock { $0.result = bytes }
                        } catch {
                            state.withLock { $0.failure = error }
                        }
                    }
                    done.signal()
                    return
                }
                slots.signal()
                if next.failed { continue }
                do {
                    try encoder.add(frame.0, delay: frame.1)
                } catch {
                    state.withLock { $0.failure = error }
                }
            }
        }

        func put(_ image: Image, _ delay: Duration) throws {
            if let failure = state.withLock({ $0.failure }) { throw failure }
            slots.wait()
            state.withLock { $0.queue.append((image, delay)) }
            items.signal()
        }

        func finish() throws -> [UInt8] {
            end()
            return try state.withLock { s throws -> [UInt8] in
                if let failure = s.failure { throw failure }
                return s.result ?? []
            }
        }

        /// Ends the queue's work: after the frames given (finish), or at once when the decode
        /// stopped early (a failure, a deadline: nothing more is encoded).
        func close() {
            state.withLock { if !$0.closed && $0.failure == nil { $0.failure = CancellationError() } }
            end()
        }

        private func end() {
            let first = state.withLock { s -> Bool in
                defer { s.closed = true }
                return !s.closed
            }
            guard first else { return }
            items.signal()
            done.wait()
        }
    }
}
