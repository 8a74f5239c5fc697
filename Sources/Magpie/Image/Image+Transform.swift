internal import CMagpie

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
    /// alpha, as decoding does); a window the size of the output is an exact crop.
    /// - Throws: ``MagpieError/processingFailed(_:)`` with ``CoreFailure/Code/invalidArgument`` for
    ///   empty sizes or a window outside the image, ``CoreFailure/Code/pixelLimitExceeded`` past 300 Mpx.
    public func resampled(
        window: PixelRect? = nil, width: Int, height: Int, filter: DecodingOptions.Filter = .lanczos3
    ) throws(MagpieError) -> Image {
        let rect = window ?? PixelRect(x: 0, y: 0, width: self.width, height: self.height)
        guard width > 0, height > 0, width <= Int(UInt32.max), height <= Int(UInt32.max), rect.x >= 0, rect.y >= 0,
            rect.width > 0, rect.height > 0, rect.x <= self.width - rect.width, rect.y <= self.height - rect.height
        else { throw .processingFailed(CoreBridge.failure(Int32(MAGPIE_EINVAL.rawValue))) }
        let (area, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || area > 300_000_000 {
            throw .processingFailed(CoreBridge.failure(Int32(MAGPIE_ELIMIT_PIXELS.rawValue)))
        }
        var c = magpie_rect(
            x: UInt32(rect.x), y: UInt32(rect.y), width: UInt32(rect.width), height: UInt32(rect.height))
        let f: magpie_filter =
            switch filter {
            case .lanczos3: MAGPIE_FILTER_LANCZOS3
            case .mitchell: MAGPIE_FILTER_MITCHELL
            case .bilinear: MAGPIE_FILTER_BILINEAR
            }
        var out: [ImageFrame] = []
        out.reserveCapacity(frames.count)
        for frame in frames {
            var status: Int32 = 0
            let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
                status = frame.pixels.withUnsafeBufferPointer { src in
                    magpie_resize(
                        src.baseAddress, UInt32(self.width), UInt32(self.height), self.width * 4, &c, UInt32(width),
                        UInt32(height), f, buffer.baseAddress, width * 4)
                }
                count = status == 0 ? width * height * 4 : 0
            }
            if status != 0 { throw .processingFailed(CoreBridge.failure(status)) }
            out.append(ImageFrame(pixels: pixels, delay: frame.delay))
        }
        return Image(
            width: width, height: height, frames: out, loopCount: loopCount, sourceFormat: sourceFormat,
            sourceOrientation: sourceOrientation)
    }

    /// The rectangle `rect` of the image, exactly.
    public func cropped(to rect: PixelRect) throws(MagpieError) -> Image {
        try resampled(window: rect, width: rect.width, height: rect.height)
    }

    /// Only the first frame.
    public var firstFrame: Image {
        frames.count == 1
            ? self
            : Image(
                width: width, height: height, frames: [frames[0]], loopCount: nil, sourceFormat: sourceFormat,
                sourceOrientation: sourceOrientation)
    }
}
