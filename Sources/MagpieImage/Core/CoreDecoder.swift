internal import CMagpie

/// Probing and decoding through the C core: the only Swift code that fills C decode options
/// or reads C images.
enum CoreDecoder {
    /// Probes the bytes or the file.
    static func probe(_ input: CoreInput) throws(ImageCodecError) -> CoreInfo { CoreInfo(try input.probe()) }

    /// Decodes through one decoder handle, so the header is parsed (and a file opened) once:
    /// still images straight into the array the image keeps (no copy), animations (GIF, WebP,
    /// AVIF sequences) a frame at a time into theirs. (An APNG decodes its default image alone.)
    static func decode(_ request: CoreDecodeRequest, _ input: CoreInput) throws(ImageCodecError) -> CoreDecoded {
        var detail = [CChar](repeating: 0, count: 256)
        var o = request.cOptions
        // The detail buffer must outlive the handle, which writes a failure's reason into it.
        let result = detail.withUnsafeMutableBufferPointer { buffer in
            o.error_detail = buffer.baseAddress
            o.error_detail_size = buffer.count
            return Result { () throws(ImageCodecError) -> CoreDecoded in
                try decode(&o, input) { String(cString: buffer.baseAddress!) }
            }
        }
        return try result.get()
    }

    private static func decode(
        _ o: inout magpie_decode_options, _ input: CoreInput, why: () -> String
    ) throws(ImageCodecError) -> CoreDecoded {
        DecodeMemoryBudget.ensureConfigured()
        var handle: OpaquePointer?
        var status = input.openDecoder(&o, &handle)
        try CoreBridge.checkDecoding(status, detail: status == 0 ? nil : why())
        defer { magpie_decoder_free(handle) }
        var info = magpie_info()
        magpie_info_init(&info)
        _ = magpie_decoder_info(handle, &info)
        if info.frames <= 1 || info.format == MAGPIE_FORMAT_PNG {
            var (w, h): (UInt32, UInt32) = (0, 0)
            _ = magpie_decoder_output_size(handle, &w, &h)
            let stride = Int(w) * 4
            let count = stride * Int(h)
            let pixels = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
                status = magpie_decoder_decode_into(handle, out.baseAddress, stride, count)
                initialized = status == 0 ? count : 0
            }
            DecodeMemoryBudget.finished(status)
            try CoreBridge.checkDecoding(status, detail: status == 0 ? nil : why())
            var flags: UInt32 = 0
            var icc: UnsafePointer<UInt8>?
            var iccSize = 0
            _ = magpie_decoder_color(handle, &flags, &icc, &iccSize)
            return CoreDecoded(
                width: Int(w), height: Int(h), frames: [(pixels, 0)], loopCount: nil,
                formatName: CoreBridge.formatName(info.format), orientation: Int(info.orientation),
                profileOutcome: profileOutcome(flags),
                profile: icc.map { [UInt8](UnsafeBufferPointer(start: $0, count: iccSize)) })
        }
        // Frames one at a time into the arrays the image keeps: no whole-animation buffer besides.
        var (w, h, count): (UInt32, UInt32, UInt32) = (0, 0, 0)
        var loop: Int32 = -1
        _ = magpie_decoder_output_size(handle, &w, &h)
        _ = magpie_decoder_frame_count(handle, &count, &loop)
        let frameBytes = Int(w) * Int(h) * 4
        var frames: [(pixels: [UInt8], delayMilliseconds: Int)] = []
        frames.reserveCapacity(Int(count))
        for _ in 0..<Int(count) {
            var delay: UInt32 = 0
            let pixels = [UInt8](unsafeUninitializedCapacity: frameBytes) { out, initialized in
                status = magpie_decoder_next_frame(handle, out.baseAddress, Int(w) * 4, frameBytes, &delay)
                initialized = status == 0 ? frameBytes : 0
            }
            DecodeMemoryBudget.finished(status)
            try CoreBridge.checkDecoding(status, detail: status == 0 ? nil : why())
            frames.append((pixels, Int(delay)))
        }
        _ = magpie_decoder_frame_count(handle, &count, &loop)
        var flags: UInt32 = 0
        var icc: UnsafePointer<UInt8>?
        var iccSize = 0
        _ = magpie_decoder_color(handle, &flags, &icc, &iccSize)
        return CoreDecoded(
            width: Int(w), height: Int(h), frames: frames, loopCount: loop >= 0 ? Int(loop) : nil,
            formatName: CoreBridge.formatName(info.format), orientation: Int(info.orientation),
            profileOutcome: profileOutcome(flags),
            profile: icc.map { [UInt8](UnsafeBufferPointer(start: $0, count: iccSize)) })
    }

    private static func profileOutcome(_ flags: UInt32) -> CoreProfileOutcome {
        if flags & UInt32(MAGPIE_IMAGE_PROFILE_IGNORED) != 0 { return .ignored }
        if flags & UInt32(MAGPIE_IMAGE_PROFILE_KEPT) != 0 { return .kept }
        return flags & UInt32(MAGPIE_IMAGE_PROFILE_CONVERTED) != 0 ? .converted : .none
    }

    /// The size a decode with `options` would produce, from the header alone.
    static func outputSize(_ input: CoreInput, _ request: CoreDecodeRequest) throws(ImageCodecError) -> (
        width: Int, height: Int
    ) {
        var w: UInt32 = 0
        var h: UInt32 = 0
        var o = request.cOptions
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

extension CoreInfo {
    init(_ info: magpie_info) {
        self.init(
            formatName: CoreBridge.formatName(info.format), width: Int(info.width), height: Int(info.height),
            frames: Int(info.frames), orientation: Int(info.orientation), bitDepth: Int(info.bit_depth),
            hasAlpha: info.flags & UInt32(MAGPIE_INFO_HAS_ALPHA) != 0,
            isProgressive: info.flags & UInt32(MAGPIE_INFO_PROGRESSIVE) != 0,
            isInterlaced: info.flags & UInt32(MAGPIE_INFO_INTERLACED) != 0,
            loopCount: info.loop_count >= 0 ? Int(info.loop_count) : nil)
    }
}

extension CoreFilter {
    /// The C filter: the one mapping of this enum.
    var cFilter: magpie_filter {
        switch self {
        case .lanczos3: return MAGPIE_FILTER_LANCZOS3
        case .mitchell: return MAGPIE_FILTER_MITCHELL
        case .bilinear: return MAGPIE_FILTER_BILINEAR
        }
    }
}

extension CoreDecodeRequest {
    /// The C decode options: the one mapping of a decode request.
    var cOptions: magpie_decode_options {
        var o = magpie_decode_options()
        magpie_decode_options_init(&o)
        func clamp(_ v: Int) -> UInt32 { UInt32(clamping: max(0, v)) }
        switch fit {
        case .none: o.fit = MAGPIE_FIT_NONE
        case .inside(let w, let h):
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
        o.filter = filter.cFilter
        var flags: UInt32 = 0
        if !appliesOrientation { flags |= UInt32(MAGPIE_DECODE_KEEP_ORIENTATION) }
        if allowsUpscaling { flags |= UInt32(MAGPIE_DECODE_ALLOW_UPSCALE) }
        if fast { flags |= UInt32(MAGPIE_DECODE_FAST) }
        if noShrink { flags |= UInt32(MAGPIE_DECODE_NO_SHRINK) }
        if linearLight { flags |= UInt32(MAGPIE_DECODE_LINEAR) }
        if keepsProfile { flags |= UInt32(MAGPIE_DECODE_KEEP_PROFILE) }
        if embeddedThumbnail { flags |= UInt32(MAGPIE_DECODE_THUMBNAIL) }
        if (2...8).contains(transform) { flags |= UInt32(transform) << 8 }  // MAGPIE_DECODE_TRANSFORM
        if let frameIndex {
            flags |= UInt32(MAGPIE_DECODE_ONE_FRAME)
            o.frame_index = UInt32(clamping: max(0, frameIndex))
        }
        o.flags = flags
        o.limits.max_pixels = UInt64(max(0, maxPixels ?? 0))
        o.limits.max_bytes = UInt64(max(0, maxBytes ?? 0))
        o.limits.max_frames = UInt32(clamping: max(0, maxFrames ?? 0))
        o.limits.max_frame_work = UInt32(clamping: max(0, maxFrameWork ?? 0))
        return o
    }
}
