/// A rectangle of pixels.
public struct PixelRect: Sendable, Hashable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

extension Image {
    /// The `window` of every frame resampled to `width × height` with `filter` (premultiplied
    /// alpha, as decoding does); a window the size of the output is an exact crop. With
    /// `linearLight`, filtered in linear light (``DecodingOptions/linearLight``).
    /// - Throws: ``ImageCodecError/processingFailed(_:)`` with ``CoreFailure/Code/invalidArgument`` for
    ///   empty sizes or a window outside the image, ``CoreFailure/Code/pixelLimitExceeded`` past 300 Mpx.
    public func resampled(
        window: PixelRect? = nil, width: Int, height: Int, filter: DecodingOptions.Filter = .lanczos3,
        linearLight: Bool = false
    ) throws(ImageCodecError) -> Image {
        let rect = window ?? PixelRect(x: 0, y: 0, width: self.width, height: self.height)
        guard width > 0, height > 0, width <= Int(UInt32.max), height <= Int(UInt32.max), rect.x >= 0, rect.y >= 0,
            rect.width > 0, rect.height > 0, rect.x <= self.width - rect.width, rect.y <= self.height - rect.height
        else { throw CorePixels.invalidGeometry }
        let (area, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || area > CorePixels.maxOutputPixels { throw CorePixels.tooManyPixels }
        var out: [ImageFrame] = []
        out.reserveCapacity(frames.count)
        for frame in frames {
            let pixels = try CorePixels.resample(
                frame.pixels, sourceWidth: self.width, sourceHeight: self.height,
                window: (rect.x, rect.y, rect.width, rect.height), width: width, height: height, filter: filter.core,
                linearLight: linearLight)
            out.append(ImageFrame(pixels: pixels, delay: frame.delay))
        }
        return Image(
            width: width, height: height, frames: out, loopCount: loopCount, sourceFormat: sourceFormat,
            sourceOrientation: sourceOrientation
        ).carryingColor(of: self)
    }

    /// The rectangle `rect` of the image, exactly.
    public func cropped(to rect: PixelRect) throws(ImageCodecError) -> Image {
        try resampled(window: rect, width: rect.width, height: rect.height)
    }

    /// Only the first frame.
    public var firstFrame: Image {
        frames.count == 1
            ? self
            : Image(
                width: width, height: height, frames: [frames[0]], loopCount: nil, sourceFormat: sourceFormat,
                sourceOrientation: sourceOrientation
            ).carryingColor(of: self)
    }
}
