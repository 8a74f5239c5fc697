/// Gaussian blur (Kingfisher's `BlurImageProcessor`, Nuke's `GaussianBlur`, imgproxy's `bl`).
public struct BlurProcessor: ImageProcessor {
    /// 0 (no change) to 100.
    public var sigma: Double

    public init(sigma: Double) { self.sigma = sigma }

    public var identifier: String { "magpie.blur(\(sigma))" }

    public func process(_ input: ImageProcessingInput, firstFrameOnly: Bool) throws -> Image {
        try input.image(firstFrameOnly: firstFrameOnly) { $0 }.blurred(sigma: sigma)
    }
}

/// Unsharp mask on luma (imgproxy's `sh`): see ``Sharpening``.
public struct SharpenProcessor: ImageProcessor {
    public var sharpening: Sharpening

    public init(_ sharpening: Sharpening = Sharpening()) { self.sharpening = sharpening }

    public var identifier: String { "magpie.sharpen(\(sharpening.name))" }

    public func process(_ input: ImageProcessingInput, firstFrameOnly: Bool) throws -> Image {
        try input.image(firstFrameOnly: firstFrameOnly) { $0 }.sharpened(sharpening)
    }
}

/// Rotation by quarter turns and flips (SDWebImage's Rotation and Flipping, imgproxy's `rot` and
/// `fl`). From bytes it is composed with the EXIF orientation into one transform while decoding;
/// after a ``DownsamplingProcessor`` (`resize |> turn`) the two are one decode.
public struct TransformProcessor: ImageProcessor {
    public var orientation: Orientation

    public init(_ orientation: Orientation) { self.orientation = orientation }
    /// A clockwise rotation by 90, 180 or 270 degrees, then the flips asked for.
    public init?(rotatingClockwise degrees: Int, flipHorizontally: Bool = false, flipVertically: Bool = false) {
        guard let turn = Orientation(rotatingClockwise: degrees) else { return nil }
        orientation = turn.then(.flip(horizontal: flipHorizontally, vertical: flipVertically))
    }

    public var identifier: String { orientation == .up ? "" : "magpie.orient(\(orientation.rawValue))" }

    public func process(_ input: ImageProcessingInput, firstFrameOnly: Bool) throws -> Image {
        switch input {
        case .data(let data):
            var options = DecodingOptions.default
            options.transform = orientation
            if firstFrameOnly { options.frames = .single(0) }
            return try Image(decoding: data, options: options)
        case .image(let image): return try (firstFrameOnly ? image.firstFrame : image).transformed(orientation)
        }
    }
}

extension ImageProcessingInput {
    /// The image this input is (bytes decoded at full size, orientation applied), passed through
    /// `body` when it is already an image.
    func image(firstFrameOnly: Bool, _ body: (Image) -> Image) throws -> Image {
        switch self {
        case .data(let data):
            return try Image(decoding: data, options: firstFrameOnly ? DecodingOptions(frames: .single(0)) : .default)
        case .image(let image): return body(firstFrameOnly ? image.firstFrame : image)
        }
    }
}

/// Pixelates (imgproxy's `pix`): every `size × size` block becomes its mean colour.
public struct PixelateProcessor: ImageProcessor {
    public var size: Int
    public init(size: Int) { self.size = max(1, size) }
    public var identifier: String { "magpie.pixelate(\(size))" }
    public func process(_ input: ImageProcessingInput, firstFrameOnly: Bool) throws -> Image {
        try input.image(firstFrameOnly: firstFrameOnly) { $0 }.pixelated(size: size)
    }
}
