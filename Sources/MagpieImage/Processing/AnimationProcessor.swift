#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A processor whose decode of bytes can be done by someone else a frame at a time: the decode
/// it does, and what it does to the decoded image after (nil: nothing).
public protocol FrameDecodingProcessor: ImageProcessor {
    func frameDecoding(of source: EncodedSource) throws -> (options: DecodingOptions, then: (any ImageProcessor)?)
}

extension ImageProcessor {
    /// How an animation's frames are decoded, then processed, for this processor: its own plan
    /// where it has one (shrink-on-load and the filter windows made once), else a full-size decode
    /// and the whole processor on each frame.
    public func framePlan(for source: EncodedSource) throws -> (options: DecodingOptions, then: (any ImageProcessor)?) {
        if let planned = self as? any FrameDecodingProcessor { return try planned.frameDecoding(of: source) }
        return (.default, self)
    }
}

extension DefaultImageProcessor: FrameDecodingProcessor {
    public func frameDecoding(of source: EncodedSource) throws -> (
        options: DecodingOptions, then: (any ImageProcessor)?
    ) {
        var options = DecodingOptions.default
        options.keepsColorProfile = keepsColorProfile
        return (options, nil)
    }
}

extension DownsamplingProcessor: FrameDecodingProcessor {
    public func frameDecoding(of source: EncodedSource) throws -> (
        options: DecodingOptions, then: (any ImageProcessor)?
    ) {
        let after = sharpening.map { SharpenProcessor($0) as any ImageProcessor }
        return (try decodingOptions(for: source), after)
    }
}

extension CompositeProcessor: FrameDecodingProcessor {
    public func frameDecoding(of source: EncodedSource) throws -> (
        options: DecodingOptions, then: (any ImageProcessor)?
    ) {
        if let resize = first as? DownsamplingProcessor, resize.sharpening == nil,
            let turn = second as? TransformProcessor
        {
            return try resize.transformed(by: turn.orientation).frameDecoding(of: source)
        }
        let (options, then) = try first.framePlan(for: source)
        return (options, then.map { CompositeProcessor($0, second) } ?? second)
    }
}

/// The time an animation's processing had run out (``AnimationProcessor/timeLimit``).
public struct AnimationTimeLimitExceeded: Error, CustomStringConvertible {
    public let framesDone: Int
    public var description: String { "the time limit passed after \(framesDone) frames of an animation" }
}

/// Keeps animations animated: an animated source (GIF, animated WebP, AVIF sequence) is decoded a
/// frame at a time with `processor`'s decode plan, the rest of `processor` runs on each frame, and
/// the frames are encoded as they come, so memory is one canvas, one output frame and the
/// encoder's state. The image returned is the first output frame carrying the whole encoded
/// animation (``Image/animation``), which serializers write as it is. A still source, a request
/// for the first frame only, or `maxFrames` 1, is `processor`'s ordinary result.
public struct AnimationProcessor: ImageProcessor {
    public var processor: any ImageProcessor
    /// The animation's format: nil for the source's own where this build writes it (GIF, WebP),
    /// else WebP.
    public var format: EncodingFormat?
    /// Frames kept from the start (imgproxy's `max_animation_frames`); the rest are left out.
    public var maxFrames: Int
    /// How long the frames may take, from the first (past it: ``AnimationTimeLimitExceeded``).
    public var timeLimit: Duration?

    public init(
        _ processor: any ImageProcessor = DefaultImageProcessor(), format: EncodingFormat? = nil,
        maxFrames: Int = .max, timeLimit: Duration? = nil
    ) {
        self.processor = processor
        self.format = format
        self.maxFrames = max(1, maxFrames)
        self.timeLimit = timeLimit
    }

    public var identifier: String {
        let f = format.map { "\($0)" } ?? "own"
        let inner = processor.identifier.isEmpty ? "" : "|>" + processor.identifier
        return "magpie.animate(\(f)\(maxFrames == .max ? "" : ",max\(maxFrames)"))\(inner)"
    }

    /// The encoding an animated source of `format` is written in, nil when none animates.
    public func encoding(forSource source: ImageFormat) -> EncodingFormat? {
        if let format { return format.animates ? format : nil }
        if let own = EncodingFormat.standard(source, quality: 85), own.animates { return own }
        let webp = EncodingFormat.webp()
        return webp.animates ? webp : nil
    }

    public func process(_ input: ImageProcessingInput, firstFrameOnly: Bool) throws -> Image {
        guard !firstFrameOnly, case .data(let data) = input, let animated = try animation(of: .data(data)) else {
            return try processor.process(input, firstFrameOnly: firstFrameOnly)
        }
        return animated
    }

    /// The animation made of `source`'s frames; nil when it is no animation (or one frame is all
    /// that is kept, or no format here writes it).
    /// - Parameters:
    ///   - source: the encoded animation, in memory or a file.
    ///   - concurrently: encode on a thread of its own while the next frame is decoded (for a
    ///     command-line tool; a server's requests already keep its cores busy).
    public func animation(of source: EncodedSource, concurrently: Bool = false) throws -> Image? {
        guard maxFrames > 1, let info = try? source.info(), info.frameCount > 1,
            let encoding = encoding(forSource: info.format)
        else { return nil }
        let (options, then) = try processor.framePlan(for: source)
        let deadline = timeLimit.map { ContinuousClock.now + $0 }
        var done = 0
        return try Image.transcodingAnimation(
            source, options: options, maxFrames: maxFrames, as: encoding, concurrently: concurrently,
            checkpoint: {
                if let deadline, ContinuousClock.now >= deadline { throw AnimationTimeLimitExceeded(framesDone: done) }
                done += 1
            },
            process: { frame in try then?.process(.image(frame), firstFrameOnly: true) ?? frame })
    }
}
