import MagpieImage

/// imgproxy's options about what is written and what a source may be (their rows follow):
/// `fq`, `mb`, `skp`, `raw`, `ar`, `sm`, `kcr`, `eth`, and the per-request limits `msr`, `msfs`,
/// `maf`, `mafr` and `mrd`, which here may only tighten the server's (so they need no
/// `IMGPROXY_ALLOW_SECURITY_OPTIONS`).
struct OutputOptions: Sendable, Hashable {
    /// `fq|format_quality:fmt:q:…`: the quality per output format where `q` is not given.
    var formatQuality: [String: Int] = [:]
    /// `mb|max_bytes`: lower a lossy format's quality until the body fits (0: off).
    var maxBytes = 0
    /// `skp|skip_processing:fmt:…`: source formats answered as they are when the output is theirs.
    var skip: Set<String> = []
    /// `raw`: the source's bytes, unprocessed and unchecked but for the byte limit.
    var raw = false
    /// `ar|auto_rotate`: apply the EXIF orientation (`nil`: the server's default, on).
    var autoRotate: Bool?
    /// `sm|strip_metadata`: accepted; Magpie's encoders write no metadata (but what `kcr` keeps).
    var stripMetadata: Bool?
    /// `ph|preserve_hdr`: parsed, changes nothing (see its row).
    var preservesHDR: Bool?
    /// `kcr|keep_copyright`: the source's EXIF copyright and artist written into the result.
    var keepCopyright: Bool?
    /// `eth|enforce_thumbnail`: decode a JPEG's EXIF thumbnail when it is large enough for the output.
    var enforceThumbnail: Bool?
    /// Megapixels, bytes, frames, megapixels a frame, pixels a side: each at most the server's.
    var maxSrcResolution: Double?
    var maxSrcFileSize: Int?
    var maxAnimationFrames: Int?
    var maxAnimationFrameResolution: Double?
    var maxResultDimension: Int?

    static let rows: [URLOption] = [
        URLOption(["fq", "format_quality"], .output) { o, a throws(ServiceError) in
            guard !a.isEmpty, a.count % 2 == 0, a.count <= 32 else { throw .badOption }
            for i in stride(from: 0, to: a.count, by: 2) {
                guard let format = ImageFormat(fileExtension: a[i]), format.isEncodable else { throw .badOption }
                o.output.formatQuality[format.fileExtension] = try OptionArgs.int(a[i + 1], 1...100)
            }
        },
        URLOption(["mb", "max_bytes"], .output) { o, a throws(ServiceError) in
            try OptionArgs.count(a, 1...1)
            o.output.maxBytes = try OptionArgs.int(a[0], 0...(1 << 40))
        },
        URLOption(["skp", "skip_processing"], .output) { o, a throws(ServiceError) in
            guard !a.isEmpty, a.count <= 32 else { throw .badOption }
            for name in a {
                guard let format = ImageFormat(fileExtension: name) else { throw .badOption }
                o.output.skip.insert(format.fileExtension)
            }
        },
        URLOption(["raw"], .request) { o, a throws(ServiceError) in o.output.raw = try OptionArgs.bool(a) },
        URLOption(["ar", "auto_rotate"], .resize) { o, a throws(ServiceError) in
            o.output.autoRotate = try OptionArgs.bool(a)
        },
        URLOption(["sm", "strip_metadata"], .output) { o, a throws(ServiceError) in
            o.output.stripMetadata = try OptionArgs.bool(a)
        },
        // `ph`: accepted as imgproxy parses it; Magpie's pixels are 8 bits a channel, so an HDR
        // source (10 to 16 bits, or a wide gamut) is written in 8-bit sRGB with or without it.
        URLOption(["ph", "preserve_hdr"], .output) { o, a throws(ServiceError) in
            o.output.preservesHDR = try OptionArgs.bool(a)
        },
        URLOption(["kcr", "keep_copyright"], .output) { o, a throws(ServiceError) in
            o.output.keepCopyright = try OptionArgs.bool(a)
        },
        URLOption(["eth", "enforce_thumbnail"], .resize) { o, a throws(ServiceError) in
            o.output.enforceThumbnail = try OptionArgs.bool(a)
        },
        // The limits name the variant: one made under looser ones is not served to a request with
        // tighter ones. (The quality, `mb`, `ar`, `eth` and `kcr` are named as the server resolves
        // them, with its defaults, by the variant.)
        URLOption(["msr", "max_src_resolution"], .request, part: { o in o.output.maxSrcResolution.map { "msr\($0)" } })
        { o, a throws(ServiceError) in
            try OptionArgs.count(a, 1...1)
            o.output.maxSrcResolution = try positive(OptionArgs.decimal(a[0], 0...1_000_000))
        },
        URLOption(["msfs", "max_src_file_size"], .request, part: { o in o.output.maxSrcFileSize.map { "msfs\($0)" } }) {
            o, a throws(ServiceError) in
            try OptionArgs.count(a, 1...1)
            o.output.maxSrcFileSize = try OptionArgs.int(a[0], 1...(1 << 40))
        },
        URLOption(
            ["maf", "max_animation_frames"], .request, part: { o in o.output.maxAnimationFrames.map { "maf\($0)" } }
        ) { o, a throws(ServiceError) in
            try OptionArgs.count(a, 1...1)
            o.output.maxAnimationFrames = try OptionArgs.int(a[0], 1...1_000_000)
        },
        URLOption(
            ["mafr", "max_animation_frame_resolution"], .request,
            part: { o in o.output.maxAnimationFrameResolution.map { "mafr\($0)" } }
        ) { o, a throws(ServiceError) in
            try OptionArgs.count(a, 1...1)
            o.output.maxAnimationFrameResolution = try positive(OptionArgs.decimal(a[0], 0...1_000_000))
        },
        URLOption(["mrd", "max_result_dimension"], .request) { o, a throws(ServiceError) in
            try OptionArgs.count(a, 1...1)
            o.output.maxResultDimension = try OptionArgs.int(a[0], 1...1_000_000)
        },
    ]

    private static func positive(_ v: Double) throws(ServiceError) -> Double {
        guard v > 0 else { throw .badOption }
        return v
    }
}
