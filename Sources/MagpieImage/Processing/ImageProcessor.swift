/// What a processor works on: downloaded or cached bytes, or an image a previous processor made.
public enum ImageProcessingInput: Sendable {
    case data([UInt8])
    case image(Image)
}

/// Turns bytes or an image into the image that is cached and returned (Kingfisher's
/// `ImageProcessor`). The identifier names the output: it is part of the cache key, so two
/// processors that produce different pixels must have different identifiers (every parameter
/// that changes pixels is in it), and it must not change between runs (no addresses, no
/// per-process hashes): entries on disk are found by it.
public protocol ImageProcessor: Sendable {
    /// Empty for the default processor (plain decoding), which adds nothing to cache keys.
    var identifier: String { get }
    /// - Parameters:
    ///   - input: encoded bytes to decode, or an image already decoded.
    ///   - firstFrameOnly: decode or keep only an animation's first frame.
    func process(_ input: ImageProcessingInput, firstFrameOnly: Bool) throws -> Image
}

extension ImageProcessor {
    /// Decodes `data` with `options`, keeping one frame when asked.
    func decode(_ data: [UInt8], _ options: DecodingOptions, firstFrameOnly: Bool) throws -> Image {
        var options = options
        if firstFrameOnly { options.frames = .single(0) }
        return try Image(decoding: data, options: options)
    }
}

/// Plain decoding at full size (orientation applied).
public struct DefaultImageProcessor: ImageProcessor {
    /// Keep the source's colour profile rather than convert to sRGB
    /// (``DecodingOptions/keepsColorProfile``).
    public var keepsColorProfile: Bool
    public init(keepsColorProfile: Bool = false) { self.keepsColorProfile = keepsColorProfile }
    public var identifier: String { keepsColorProfile ? "magpie.decode(kcp)" : "" }
    public func process(_ input: ImageProcessingInput, firstFrameOnly: Bool) throws -> Image {
        switch input {
        case .data(let data):
            var options = DecodingOptions.default
            options.keepsColorProfile = keepsColorProfile
            return try decode(data, options, firstFrameOnly: firstFrameOnly)
        case .image(let image): return firstFrameOnly ? image.firstFrame : image
        }
    }
}

/// How a target size is met.
public enum ContentMode: String, Sendable, Hashable {
    /// The largest size inside the target, aspect ratio kept.
    case fit
    /// Covers the target with the aspect ratio kept, then crops the overflow (see the anchor).
    case fill
    /// The smallest size that covers the target, aspect ratio kept, nothing cropped.
    case cover
    /// Exactly the target; the aspect ratio is not kept.
    case exact
}

extension DecodingOptions.Filter {
    /// How processor identifiers name the filter (nothing for the default, Lanczos3, so the
    /// identifiers written before filters were named still find their entries).
    var identifierSuffix: String {
        switch self {
        case .lanczos3: return ""
        case .mitchell: return ",mitchell"
        case .bilinear: return ",bilinear"
        }
    }
}

/// Computes output sizes for the three content modes.
enum Geometry {
    /// The scaled size (before any fill crop) of a `w × h` image for a target, in whole pixels.
    static func scaled(_ w: Int, _ h: Int, to tw: Int, _ th: Int, mode: ContentMode, upscale: Bool) -> (Int, Int) {
        switch mode {
        case .exact: return (tw, th)
        case .fit, .fill, .cover:
            let sx = Double(tw) / Double(w)
            let sy = Double(th) / Double(h)
            var s = mode == .fit ? min(sx, sy) : max(sx, sy)
            if !upscale { s = min(s, 1) }
            return (max(1, Int((Double(w) * s).rounded())), max(1, Int((Double(h) * s).rounded())))
        }
    }
}

/// Crops to `width × height` (clamped to the image) at an anchor, without scaling.
public struct CroppingProcessor: ImageProcessor {
    public var width: Int
    public var height: Int
    public var anchor: CropAnchor

    public init(width: Int, height: Int, anchor: CropAnchor = .center) {
        self.width = max(1, width)
        self.height = max(1, height)
        self.anchor = anchor
    }

    public var identifier: String { "magpie.crop(\(width)x\(height),\(anchor.name))" }

    public func process(_ input: ImageProcessingInput, firstFrameOnly: Bool) throws -> Image {
        let image: Image
        switch input {
        case .data(let data): image = try decode(data, .default, firstFrameOnly: firstFrameOnly)
        case .image(let i): image = firstFrameOnly ? i.firstFrame : i
        }
        let w = min(width, image.width)
        let h = min(height, image.height)
        if w == image.width && h == image.height { return image }
        let (x, y) = try anchor.origin(in: image, width: w, height: h)
        return try image.cropped(to: PixelRect(x: x, y: y, width: w, height: h))
    }
}

/// Two processors in a row: the first gets the bytes, the second its image.
public struct CompositeProcessor: ImageProcessor {
    public let first: any ImageProcessor
    public let second: any ImageProcessor

    public init(_ first: any ImageProcessor, _ second: any ImageProcessor) {
        self.first = first
        self.second = second
    }

    public var identifier: String {
        if first.identifier.isEmpty { return second.identifier }
        if second.identifier.isEmpty { return first.identifier }
        return first.identifier + "|>" + second.identifier
    }

    public func process(_ input: ImageProcessingInput, firstFrameOnly: Bool) throws -> Image {
        // A downsample then a rotation or flip: one decode that does both (the same pixels).
        if case .data = input, let resize = first as? DownsamplingProcessor, resize.sharpening == nil,
            let turn = second as? TransformProcessor
        {
            return try resize.transformed(by: turn.orientation).process(input, firstFrameOnly: firstFrameOnly)
        }
        let image = try first.process(input, firstFrameOnly: firstFrameOnly)
        return try second.process(.image(image), firstFrameOnly: firstFrameOnly)
    }
}

infix operator |> : AdditionPrecedence

/// `a |> b`: `b` processes what `a` made.
public func |> (lhs: any ImageProcessor, rhs: any ImageProcessor) -> any ImageProcessor {
    CompositeProcessor(lhs, rhs)
}
