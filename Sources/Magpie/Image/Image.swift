internal import CMagpie

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

    /// The first frame's pixels.
    public var pixels: [UInt8] { frames[0].pixels }
    /// Bytes of pixel memory: what a memory cache charges for this image.
    public var cost: Int { width * height * 4 * frames.count }
    /// Whether any pixel is not fully opaque.
    public var hasAlpha: Bool {
        frames.contains { frame in stride(from: 3, to: frame.pixels.count, by: 4).contains { frame.pixels[$0] != 255 } }
    }

    /// An image from RGBA pixels made in memory.
    /// - Throws: ``MagpieError/invalidPixelBuffer(expectedBytes:actualBytes:)`` when sizes disagree.
    public init(width: Int, height: Int, rgba pixels: [UInt8]) throws(MagpieError) {
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

    /// Decodes JPEG, PNG or GIF bytes.
    ///
    /// With a `resize`, JPEGs decode at a reduced DCT scale first (shrink-on-load) and PNG rows
    /// stream through the resampler, so a thumbnail of a huge image needs little memory.
    /// - Throws: ``MagpieError/decodingFailed(_:)``: unknown or unsupported formats, truncated or
    ///   corrupt data, and anything over the limits. Never crashes on hostile input.
    public init<Bytes: ContiguousBytes>(decoding bytes: Bytes, options: DecodingOptions = .default)
        throws(MagpieError)
    {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(MagpieError) -> Image in
                try Image.decode(options, CoreInput(memory: raw))
            }
        }
        self = try result.get()
    }

    /// Decodes the image file at `path`, reading it through a small window instead of loading it:
    /// a thumbnail of a large JPEG or non-interlaced PNG holds only a few of its rows.
    /// - Throws: ``MagpieError/decodingFailed(_:)``; a missing or unreadable file has the code
    ///   ``CoreFailure/Code/fileUnreadable`` with the system's reason as detail.
    public init(contentsOfFile path: String, options: DecodingOptions = .default) throws(MagpieError) {
        self = try Image.decode(options, CoreInput(path: path))
    }

    /// Decodes still images straight into the array the image keeps (no copy); animations go
    /// through the library's frame list.
    private static func decode(_ options: DecodingOptions, _ input: CoreInput) throws(MagpieError) -> Image {
        let info = try input.probe()
        var detail = [CChar](repeating: 0, count: 256)
        var o = options.cOptions
        if info.format != MAGPIE_FORMAT_GIF {
            let (width, height) = try outputSize(input, options)
            let (w, h) = (UInt32(width), UInt32(height))
            let stride = Int(w) * 4
            let count = stride * Int(h)
            var status: Int32 = 0
            let pixels = detail.withUnsafeMutableBufferPointer { buffer in
                o.error_detail = buffer.baseAddress
                o.error_detail_size = buffer.count
                return [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
                    status = input.decodeInto(&o, out.baseAddress, stride, count)
                    initialized = status == 0 ? count : 0
                }
            }
            try CoreBridge.checkDecoding(status, detail: CoreBridge.string(detail))
            return Image(
                width: Int(w), height: Int(h), frames: [ImageFrame(pixels: pixels, delay: .zero)], loopCount: nil,
                sourceFormat: CoreBridge.format(info.format), sourceOrientation: Int(info.orientation))
        }
        var image: UnsafeMutablePointer<magpie_image>?
        let status = detail.withUnsafeMutableBufferPointer { buffer -> Int32 in
            o.error_detail = buffer.baseAddress
            o.error_detail_size = buffer.count
            return input.decode(&o, &image)
        }
        try CoreBridge.checkDecoding(status, detail: CoreBridge.string(detail))
        guard let image else { throw .decodingFailed(CoreBridge.failure(Int32(MAGPIE_EINTERNAL.rawValue))) }
        defer { magpie_image_free(image) }
        let img = image.pointee
        let frameBytes = Int(img.height) * Int(img.stride)
        var frames: [ImageFrame] = []
        frames.reserveCapacity(Int(img.frame_count))
        for i in 0..<Int(img.frame_count) {
            let start = img.pixels + i * frameBytes
            let pixels = [UInt8](UnsafeBufferPointer(start: start, count: frameBytes))
            frames.append(ImageFrame(pixels: pixels, delay: .milliseconds(Int(img.delays_ms[i]))))
        }
        return Image(
            width: Int(img.width), height: Int(img.height), frames: frames,
            loopCount: img.loop_count >= 0 ? Int(img.loop_count) : nil,
            sourceFormat: CoreBridge.format(info.format), sourceOrientation: Int(info.orientation))
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
        throws(MagpieError) -> (width: Int, height: Int)
    {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(MagpieError) -> (width: Int, height: Int) in
                try outputSize(CoreInput(memory: raw), options)
            }
        }
        return try result.get()
    }

    /// The size decoding the file at `path` with `options` would produce, read from its header.
    public static func outputSize(ofFile path: String, options: DecodingOptions = .default)
        throws(MagpieError) -> (width: Int, height: Int)
    {
        try outputSize(CoreInput(path: path), options)
    }

    private static func outputSize(_ input: CoreInput, _ options: DecodingOptions) throws(MagpieError) -> (
        width: Int, height: Int
    ) {
        var w: UInt32 = 0
        var h: UInt32 = 0
        var o = options.cOptions
        var detail = [CChar](repeating: 0, count: 256)
        let status = detail.withUnsafeMutableBufferPointer { buffer in
            o.error_detail = buffer.baseAddress
            o.error_detail_size = buffer.count
            return input.outputSize(&o, &w, &h)
        }
        try CoreBridge.checkDecoding(status, detail: CoreBridge.string(detail))
        return (Int(w), Int(h))
    }
}

extension DecodingOptions {
    var cOptions: magpie_decode_options {
        var o = magpie_decode_options()
        magpie_decode_options_init(&o)
        func clamp(_ v: Int) -> UInt32 { UInt32(clamping: max(0, v)) }
        switch resize {
        case nil: o.fit = MAGPIE_FIT_NONE
        case .fit(let w, let h):
            o.fit = MAGPIE_FIT_INSIDE
            o.width = clamp(w)
            o.height = clamp(h)
        case .fill(let w, let h):
            o.fit = MAGPIE_FIT_FILL
            o.width = clamp(w)
            o.height = clamp(h)
        case .exact(let w, let h):
            o.fit = MAGPIE_FIT_EXACT
            o.width = clamp(w)
            o.height = clamp(h)
        case .maxPixels(let n):
            o.fit = MAGPIE_FIT_MAX_PIXELS
            o.max_output_pixels = UInt64(max(0, n))
        }
        switch filter {
        case .lanczos3: o.filter = MAGPIE_FILTER_LANCZOS3
        case .mitchell: o.filter = MAGPIE_FILTER_MITCHELL
        case .bilinear: o.filter = MAGPIE_FILTER_BILINEAR
        }
        var flags: UInt32 = 0
        if !appliesOrientation { flags |= UInt32(MAGPIE_DECODE_KEEP_ORIENTATION) }
        if allowsUpscaling { flags |= UInt32(MAGPIE_DECODE_ALLOW_UPSCALE) }
        if case .single(let index) = frames {
            flags |= UInt32(MAGPIE_DECODE_ONE_FRAME)
            o.frame_index = UInt32(clamping: max(0, index))
        }
        o.flags = flags
        o.limits.max_pixels = UInt64(max(0, limits.maxPixels ?? 0))
        o.limits.max_bytes = UInt64(max(0, limits.maxBytes ?? 0))
        o.limits.max_frames = UInt32(clamping: max(0, limits.maxFrames ?? 0))
        o.limits.max_frame_work = UInt32(clamping: max(0, limits.maxFrameWork ?? 0))
        return o
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
