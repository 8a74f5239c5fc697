#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a probe reads from an image header, without decoding pixels.
public struct ImageInfo: Sendable, Hashable {
    /// The format sniffed from the bytes.
    public var format: ImageFormat
    /// Stored width, before EXIF orientation (0 when the header does not say).
    public var width: Int
    /// Stored height, before EXIF orientation (0 when the header does not say).
    public var height: Int
    /// Frames the file declares: GIF image count, APNG frame count, else 1.
    public var frameCount: Int
    /// EXIF orientation 1–8 (1 when absent).
    public var orientation: Int
    /// Bits per sample as stored.
    public var bitDepth: Int
    /// Whether the image has an alpha channel or transparency.
    public var hasAlpha: Bool
    /// Progressive JPEG.
    public var isProgressive: Bool
    /// Interlaced PNG or GIF.
    public var isInterlaced: Bool
    /// GIF loop count (0 = forever), `nil` when the file gives none.
    public var loopCount: Int?

    /// Width and height as displayed, after EXIF orientation.
    public var uprightSize: (width: Int, height: Int) {
        orientation >= 5 ? (height, width) : (width, height)
    }

    /// Probes `bytes`.
    /// - Throws: ``ImageCodecError/decodingFailed(_:)`` for unknown, truncated or malformed headers.
    public init<Bytes: ContiguousBytes>(probing bytes: Bytes) throws(ImageCodecError) {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(ImageCodecError) -> ImageInfo in ImageInfo(try CoreDecoder.probe(CoreInput(memory: raw)))
            }
        }
        self = try result.get()
    }

    /// Probes the file at `path`, reading only what the header walk needs.
    /// - Throws: ``ImageCodecError/decodingFailed(_:)``, with ``CoreFailure/Code/fileUnreadable`` when
    ///   the file cannot be opened or read.
    public init(contentsOfFile path: String) throws(ImageCodecError) {
        self = ImageInfo(try CoreDecoder.probe(CoreInput(path: path)))
    }

    init(
        format: ImageFormat, width: Int, height: Int, frameCount: Int, orientation: Int, bitDepth: Int,
        hasAlpha: Bool, isProgressive: Bool, isInterlaced: Bool, loopCount: Int?
    ) {
        self.format = format
        self.width = width
        self.height = height
        self.frameCount = frameCount
        self.orientation = orientation
        self.bitDepth = bitDepth
        self.hasAlpha = hasAlpha
        self.isProgressive = isProgressive
        self.isInterlaced = isInterlaced
        self.loopCount = loopCount
    }

    public static func == (a: ImageInfo, b: ImageInfo) -> Bool {
        a.format == b.format && a.width == b.width && a.height == b.height && a.frameCount == b.frameCount
            && a.orientation == b.orientation && a.bitDepth == b.bitDepth && a.hasAlpha == b.hasAlpha
            && a.isProgressive == b.isProgressive && a.isInterlaced == b.isInterlaced && a.loopCount == b.loopCount
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(format)
        hasher.combine(width)
        hasher.combine(height)
        hasher.combine(frameCount)
        hasher.combine(orientation)
    }
}
