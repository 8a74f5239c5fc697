#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One frame of an image: RGBA8 pixels with straight alpha, rows `width * 4` bytes apart.
public struct ImageFrame: Sendable, Hashable {
    /// `width * height * 4` bytes, R, G, B, A.
    public var pixels: [UInt8]
    /// How long the frame shows (GIF); zero for stills.
    public var delay: Duration
}

/// A decoded image: 8-bit RGBA pixels (straight alpha), one or more frames.
public struct Image: Sendable, Hashable {
    public let width: Int
    public let height: Int
    /// At least one frame; animations have several, each fully composited.
    public let frames: [ImageFrame]
    /// GIF NETSCAPE loop count: how often the animation repeats after the first play (0 = forever);
    /// `nil` when the file gives none (play once).
    public let loopCount: Int?
    /// The format the pixels were decoded from (`.unknown` for images made in memory).
    public let sourceFormat: ImageFormat
    /// The source's EXIF orientation (already applied unless decoding was told otherwise).
    public let sourceOrientation: Int
    /// The source's ICC profile when decoding kept it (``DecodingOptions/keepsColorProfile``): the
    /// pixels are the stored numbers and ``encoded(as:)`` embeds it. `nil` by default, when the
    /// pixels were converted to sRGB (or the source had none); set it to `nil` to write them untagged.
    public var colorProfile: [UInt8]? = nil
    /// What decoding did with the source's colour profile.
    public internal(set) var colorProfileHandling: ColorProfileHandling = .none
    /// The whole animation, already encoded, when it was processed a frame at a time
    /// (``AnimationProcessor``): `frames` then holds its first frame alone, and serializers and
    /// ``encoded(as:)`` in its format write these bytes (Kingfisher's `animatedImageData`).
    public var animation: EncodedAnimation? = nil

    /// The first frame's pixels.
    public var pixels: [UInt8] { frames[0].pixels }
    /// Bytes of pixel memory, and of a kept colour profile: what a memory cache charges for this
    /// image.
    public var cost: Int {
        width * height * 4 * frames.count + (colorProfile?.count ?? 0) + (animation?.data.count ?? 0)
    }
    /// Whether any pixel is not fully opaque.
    public var hasAlpha: Bool {
        frames.contains { frame in stride(from: 3, to: frame.pixels.count, by: 4).contains { frame.pixels[$0] != 255 } }
    }

    /// An image from RGBA pixels made in memory.
    /// - Throws: ``ImageCodecError/invalidPixelBuffer(expectedBytes:actualBytes:)`` when sizes disagree.
    public init(width: Int, height: Int, rgba pixels: [UInt8]) throws(ImageCodecError) {
        guard width > 0, height > 0, pixels.count == width * height * 4 else {
            throw .invalidPixelBuffer(expectedBytes: max(0, width * height * 4), actualBytes: pixels.count)
        }
        self.width = width
        self.height = height
        self.frames = [ImageFrame(pixels: pixels, delay: .zero)]
        self.loopCount = nil
        self.sourceFormat = .unknown
        self.sourceOrientation = 1
    }

    /// Decodes encoded bytes, in any format this build decodes (``ImageFormat/decodable``).
    ///
    /// With a `resize`, JPEGs decode at a reduced DCT scale first (shrink-on-load) and PNG rows
    /// stream through the resampler, so a thumbnail of a huge image needs little memory.
    /// - Throws: ``ImageCodecError/decodingFailed(_:)``: unknown or unsupported formats, truncated or
    ///   corrupt data, and anything over the limits. Never crashes on hostile input.
    public init<Bytes: ContiguousBytes>(decoding bytes: Bytes, options: DecodingOptions = .default)
        throws(ImageCodecError)
    {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(ImageCodecError) -> Image in
                try DecodeTiming.record { () throws(ImageCodecError) in
                    Image(try CoreDecoder.decode(options.coreRequest, CoreInput(memory: raw)))
                }
            }
        }
        self = try result.get()
    }

    /// Decodes the image file at `path`, reading it through a small window instead of loading it:
    /// a thumbnail of a large JPEG or non-interlaced PNG holds only a few of its rows.
    /// - Throws: ``ImageCodecError/decodingFailed(_:)``; a missing or unreadable file has the code
    ///   ``CoreFailure/Code/fileUnreadable`` with the system's reason as detail.
    public init(contentsOfFile path: String, options: DecodingOptions = .default) throws(ImageCodecError) {
        self = try DecodeTiming.record { () throws(ImageCodecError) in
            Image(try CoreDecoder.decode(options.coreRequest, CoreInput(path: path)))
        }
    }

    init(
        width: Int, height: Int, frames: [ImageFrame], loopCount: Int?, sourceFormat: ImageFormat,
        sourceOrientation: Int
    ) {
        self.width = width
        self.height = height
        self.frames = frames
        self.loopCount = loopCount
        self.sourceFormat = sourceFormat
        self.sourceOrientation = sourceOrientation
    }

    /// The size decoding `bytes` with `options` would produce, read from the header alone.
    public static func outputSize<Bytes: ContiguousBytes>(of bytes: Bytes, options: DecodingOptions = .default)
        throws(ImageCodecError) -> (width: Int, height: Int)
    {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(ImageCodecError) -> (width: Int, height: Int) in
                try CoreDecoder.outputSize(CoreInput(memory: raw), options.coreRequest)
            }
        }
        return try result.get()
    }

    /// The size decoding the file at `path` with `options` would produce, read from its header.
    public static func outputSize(ofFile path: String, options: DecodingOptions = .default)
        throws(ImageCodecError) -> (width: Int, height: Int)
    {
        try CoreDecoder.outputSize(CoreInput(path: path), options.coreRequest)
    }
}

extension Image: CustomStringConvertible {
    /// Size, frames and source format (never the pixels).
    public var description: String {
        "Image(\(width)×\(height), \(frames.count) frame\(frames.count == 1 ? "" : "s"), \(sourceFormat.rawValue))"
    }
}

extension ImageFrame: CustomStringConvertible {
    public var description: String { "ImageFrame(\(pixels.count) bytes, delay \(delay))" }
}
