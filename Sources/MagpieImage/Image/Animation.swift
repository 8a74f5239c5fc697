/// An animation encoded as a whole: its bytes and what they hold.
public struct EncodedAnimation: Sendable, Hashable {
    /// The format written (WebP or GIF).
    public let format: ImageFormat
    public let data: [UInt8]
    public let frameCount: Int
    /// Frames of the source left out (past ``DecodingOptions`` limits a caller set, say `maxFrames`).
    public let framesDropped: Int
}

/// An animated encode a frame at a time (WebP through libwebp's WebPAnimEncoder, GIF through giflib
/// and libimagequant): frames go in one by one and are never held together.
public final class AnimationEncoder {
    private let core: CoreAnimationEncoder
    public let format: EncodingFormat

    /// - Parameters:
    ///   - width: the canvas's width in pixels, every frame's.
    ///   - height: the canvas's height in pixels.
    ///   - format: the encoding; one that ``EncodingFormat/animates``.
    ///   - loopCount: repeats after the first play (0 forever, GIF's count); nil plays once.
    /// - Throws: ``ImageCodecError/encodingFailed(_:)``: a format without animations (see
    ///   ``EncodingFormat/animates``), or a size it cannot hold.
    public init(width: Int, height: Int, format: EncodingFormat, loopCount: Int? = 0) throws(ImageCodecError) {
        guard format.animates else { throw .encodingFailed(CoreBridge.failure(CoreFailure.Code.unsupported.rawValue)) }
        self.format = format
        core = try CoreAnimationEncoder(width: width, height: height, encoding: format.core, loopCount: loopCount)
    }

    /// Adds a frame (`width × height` RGBA8, straight alpha) shown for `delay`.
    public func add(_ pixels: [UInt8], delay: Duration) throws(ImageCodecError) {
        try core.add(pixels, delayMilliseconds: Int(delay / .milliseconds(1)))
    }

    /// Adds an image's first frame (it must be the encoder's size).
    public func add(_ image: Image, delay: Duration) throws(ImageCodecError) {
        guard image.width == core.width, image.height == core.height else {
            throw .encodingFailed(
                CoreBridge.failure(CoreFailure.Code.invalidArgument.rawValue, detail: "frame size changed"))
        }
        try add(image.pixels, delay: delay)
    }

    /// The encoded animation (at least one frame added).
    public func finish() throws(ImageCodecError) -> [UInt8] { try core.finish() }
}

extension Image {
    /// Decodes `bytes` a frame at a time: `body` gets each frame (a one-frame image, shown for its
    /// delay) in order, so memory is the canvas and one frame however long the animation.
    /// `maxFrames` stops after that many frames. A still image is one frame.
    /// - Returns: the frames given and the source's frame count and loop count.
    @discardableResult
    public static func forEachFrame(
        of bytes: [UInt8], options: DecodingOptions = .default, maxFrames: Int = .max,
        _ body: (Image, Duration) throws -> Void
    ) throws -> (given: Int, frameCount: Int, loopCount: Int?) {
        try forEachFrame(of: .data(bytes), options: options, maxFrames: maxFrames, body)
    }

    /// As the bytes' one, from bytes or a file (read through a small window where the format
    /// allows: GIF).
    @discardableResult
    public static func forEachFrame(
        of source: EncodedSource, options: DecodingOptions = .default, maxFrames: Int = .max,
        _ body: (Image, Duration) throws -> Void
    ) throws -> (given: Int, frameCount: Int, loopCount: Int?) {
        var request = options.coreRequest
        request.frameIndex = nil
        return try source.withInput { input in
            try CoreFrames.read(request, input) { reader in
                var given = 0
                while given < maxFrames, let frame = try DecodeTiming.record({ try reader.next() }) {
                    let image = Image(
                        width: reader.width, height: reader.height,
                        frames: [ImageFrame(pixels: frame.pixels, delay: .milliseconds(frame.delayMilliseconds))],
                        loopCount: reader.loopCount, sourceFormat: ImageFormat(rawValue: reader.formatName),
                        sourceOrientation: reader.orientation)
                    try body(image, .milliseconds(frame.delayMilliseconds))
                    given += 1
                }
                return (given, reader.frameCount, reader.loopCount)
            }
        }
    }

    /// Decodes an animation a frame at a time, passes each frame through `process`, and encodes
    /// the results as `format`: memory is the source's canvas, one output frame (two more when
    /// encoding `concurrently`, on a thread of its own) and the encoder's state. Every processed
    /// frame must have the first's size. `checkpoint` runs before each frame (a deadline or a
    /// cancellation throws there).
    /// - Returns: the first output frame, carrying the encoded animation (``animation``).
    public static func transcodingAnimation(
        _ source: EncodedSource, options: DecodingOptions = .default, maxFrames: Int = .max,
        as format: EncodingFormat, concurrently: Bool = false, checkpoint: () throws -> Void = {},
        process: (Image) throws -> Image
    ) throws -> Image {
        var sink: FrameSink?
        var first: Image?
        let (given, count, _) = try forEachFrame(of: source, options: options, maxFrames: maxFrames) { frame, delay in
            try checkpoint()
            let out = try process(frame)
            if sink == nil {
                let encoder = try AnimationEncoder(
                    width: out.width, height: out.height, format: format, loopCount: frame.loopCount)
                sink = concurrently ? FrameSink.threaded(encoder) : FrameSink(encoder)
                first = out.firstFrame
            }
            try sink?.add(out, delay: delay)
        }
        guard let sink, var poster = first else {
            throw ImageCodecError.decodingFailed(
                CoreBridge.failure(CoreFailure.Code.corrupt.rawValue, detail: "no frames"))
        }
        poster.animation = EncodedAnimation(
            format: format.format, data: try sink.finish(), frameCount: given, framesDropped: count - given)
        return poster
    }
}
