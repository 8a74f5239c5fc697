internal import CMagpie

/// An animation a frame at a time through one decoder handle (`magpie_decoder_next_frame`): each
/// frame composited and resampled as the request asks, so memory is the canvas and one frame.
struct CoreFrameReader: ~Copyable {
    let width: Int
    let height: Int
    /// Frames the reader gives (1 for a still, an APNG or a page).
    let frameCount: Int
    /// Repeats after the first play (0 forever), nil when the file gives none.
    let loopCount: Int?
    let formatName: String
    let orientation: Int
    fileprivate let handle: OpaquePointer
    fileprivate let detail: UnsafeMutablePointer<CChar>

    /// The next frame's pixels (`width × height` RGBA8) and delay; nil after the last.
    mutating func next() throws(ImageCodecError) -> (pixels: [UInt8], delayMilliseconds: Int)? {
        let count = width * height * 4
        var status: Int32 = 0
        var delay: UInt32 = 0
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            status = magpie_decoder_next_frame(handle, out.baseAddress, width * 4, count, &delay)
            initialized = status == 0 ? count : 0
        }
        DecodeMemoryBudget.finished(status)
        if status == MAGPIE_ERANGE.rawValue { return nil }
        try CoreBridge.checkDecoding(status, detail: String(cString: detail))
        return (pixels, Int(delay))
    }
}

enum CoreFrames {
    /// Opens `input` with `request` and hands `body` a reader of its frames.
    static func read<R>(
        _ request: CoreDecodeRequest, _ input: CoreInput, _ body: (inout CoreFrameReader) throws -> R
    ) throws -> R {
        DecodeMemoryBudget.ensureConfigured()
        var o = request.cOptions
        let detail = UnsafeMutablePointer<CChar>.allocate(capacity: 256)
        detail.initialize(repeating: 0, count: 256)
        defer { detail.deallocate() }
        o.error_detail = detail
        o.error_detail_size = 256
        var handle: OpaquePointer?
        let status = input.openDecoder(&o, &handle)
        try CoreBridge.checkDecoding(status, detail: status == 0 ? nil : String(cString: detail))
        guard let handle else {
            throw ImageCodecError.decodingFailed(CoreBridge.failure(Int32(MAGPIE_EINTERNAL.rawValue)))
        }
        defer { magpie_decoder_free(handle) }
        var info = magpie_info()
        magpie_info_init(&info)
        _ = magpie_decoder_info(handle, &info)
        var (w, h, frames): (UInt32, UInt32, UInt32) = (0, 0, 0)
        var loop: Int32 = -1
        _ = magpie_decoder_output_size(handle, &w, &h)
        _ = magpie_decoder_frame_count(handle, &frames, &loop)
        var reader = CoreFrameReader(
            width: Int(w), height: Int(h), frameCount: Int(frames), loopCount: loop >= 0 ? Int(loop) : nil,
            formatName: CoreBridge.formatName(info.format), orientation: Int(info.orientation), handle: handle,
            detail: detail)
        return try body(&reader)
    }
}

/// An animated encode (`magpie_animation_encoder_*`): frames go in one at a time.
final class CoreAnimationEncoder {
    private var handle: OpaquePointer?
    let width: Int
    let height: Int

    /// Whether the core writes animations in `encoding`'s format (WebP, GIF where libimagequant is).
    static func animates(_ encoding: CoreEncoding) -> Bool {
        let format = encoding.cOptions.format
        return (format == MAGPIE_FORMAT_WEBP || format == MAGPIE_FORMAT_GIF) && magpie_format_encodable(format) != 0
    }

    init(width: Int, height: Int, encoding: CoreEncoding, loopCount: Int?) throws(ImageCodecError) {
        (self.width, self.height) = (width, height)
        guard width > 0, height > 0, width <= 65535, height <= 65535 else {
            throw .encodingFailed(CoreBridge.failure(Int32(MAGPIE_EINVAL.rawValue)))
        }
        var o = encoding.cOptions
        var a = magpie_animation_options()
        magpie_animation_options_init(&a)
        a.loop_count = Int32(clamping: loopCount.map { min($0, 65535) } ?? -1)
        if case .gif(let dithering) = encoding { a.dither = Int32(clamping: min(100, max(0, dithering))) }
        try CoreBridge.checkEncoding(magpie_animation_encoder_new(UInt32(width), UInt32(height), &o, &a, &handle))
    }

    deinit { magpie_animation_encoder_free(handle) }

    /// Adds a frame of the encoder's size.
    func add(_ pixels: [UInt8], delayMilliseconds: Int) throws(ImageCodecError) {
        guard pixels.count == width * height * 4 else {
            throw .encodingFailed(CoreBridge.failure(Int32(MAGPIE_EINVAL.rawValue)))
        }
        let status = pixels.withUnsafeBufferPointer { p in
            magpie_animation_encoder_add(handle, p.baseAddress, width * 4, UInt32(clamping: max(0, delayMilliseconds)))
        }
        try CoreBridge.checkEncoding(status)
    }

    /// The file.
    func finish() throws(ImageCodecError) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        try CoreBridge.checkEncoding(magpie_animation_encoder_finish(handle, &out, &size))
        defer { magpie_free(out) }
        return [UInt8](UnsafeBufferPointer(start: out, count: size))
    }
}
