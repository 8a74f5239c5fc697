/// Keeps an animation's first `maxFrames` frames (imgproxy's `max_animation_frames`): they are
/// decoded one at a time with `processor`'s decode plan and the rest of `processor` runs on each,
/// so the frames past the limit are never decoded. A still image, or an animation within the
/// limit, is `processor`'s ordinary result.
public struct FrameLimitProcessor: ImageProcessor {
    public var processor: any ImageProcessor
    public var maxFrames: Int

    public init(_ processor: any ImageProcessor = DefaultImageProcessor(), maxFrames: Int) {
        self.processor = processor
        self.maxFrames = max(1, maxFrames)
    }

    public var identifier: String {
        "magpie.frames(max\(maxFrames))" + (processor.identifier.isEmpty ? "" : "|>" + processor.identifier)
    }

    public func process(_ input: ImageProcessingInput, firstFrameOnly: Bool) throws -> Image {
        if firstFrameOnly || maxFrames == 1 { return try processor.process(input, firstFrameOnly: true) }
        switch input {
        case .image(let image):
            guard image.frames.count > maxFrames else { return try processor.process(input, firstFrameOnly: false) }
            let kept = Image(
                width: image.width, height: image.height, frames: Array(image.frames.prefix(maxFrames)),
                loopCount: image.loopCount, sourceFormat: image.sourceFormat,
                sourceOrientation: image.sourceOrientation
            ).carryingColor(of: image)
            return try processor.process(.image(kept), firstFrameOnly: false)
        case .data(let data):
            let source = EncodedSource.data(data)
            guard try source.info().frameCount > maxFrames else {
                return try processor.process(input, firstFrameOnly: false)
            }
            let (options, then) = try processor.framePlan(for: source)
            var frames: [ImageFrame] = []
            var first: Image?
            try Image.forEachFrame(of: source, options: options, maxFrames: maxFrames) { frame, delay in
                let out = try then?.process(.image(frame), firstFrameOnly: true) ?? frame
                if let first, out.width != first.width || out.height != first.height {
                    throw ImageCodecError.processingFailed(
                        CoreBridge.failure(CoreFailure.Code.invalidArgument.rawValue, detail: "frame size changed"))
                }
                if first == nil { first = Image(out, loopCount: frame.loopCount) }
                frames.append(ImageFrame(pixels: out.pixels, delay: delay))
            }
            guard let first else { return try processor.process(input, firstFrameOnly: false) }
            return Image(
                width: first.width, height: first.height, frames: frames, loopCount: first.loopCount,
                sourceFormat: first.sourceFormat, sourceOrientation: first.sourceOrientation
            ).carryingColor(of: first)
        }
    }
}

extension Image {
    /// `image` with another loop count.
    fileprivate init(_ image: Image, loopCount: Int?) {
        self.init(
            width: image.width, height: image.height, frames: image.frames, loopCount: loopCount,
            sourceFormat: image.sourceFormat, sourceOrientation: image.sourceOrientation)
        self = carryingColor(of: image)
    }
}
