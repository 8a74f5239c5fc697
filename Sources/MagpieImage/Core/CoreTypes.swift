/// The Core layer's own vocabulary: what it takes and what it gives back, in plain Swift values,
/// so that it names no Image-layer type. The Image layer maps its public types onto these
/// (`Image+Core.swift`); only Core maps these onto the C core's.

/// A resampling filter.
enum CoreFilter: Sendable {
    case lanczos3, mitchell, bilinear
}

/// How a decode sizes its output.
enum CoreFit: Sendable {
    case none
    case inside(width: Int, height: Int)
    case fill(width: Int, height: Int)
    case exact(width: Int, height: Int)
    case maxPixels(Int)
}

/// What a decode is asked to do.
struct CoreDecodeRequest: Sendable {
    var fit: CoreFit = .none
    var filter: CoreFilter = .lanczos3
    var appliesOrientation = true
    var allowsUpscaling = false
    var fast = false
    var noShrink = false
    var linearLight = false
    /// Keep the source's colour profile (pixels as stored) rather than convert to sRGB.
    var keepsProfile = false
    var embeddedThumbnail = false
    /// An orientation (EXIF numbering) applied after the EXIF one, composed with it; 1: none.
    var transform = 1
    /// One frame only (its index); `nil` for every frame.
    var frameIndex: Int?
    /// Limits; `nil` for the core's defaults.
    var maxPixels: Int?
    var maxBytes: Int?
    var maxFrames: Int?
    var maxFrameWork: Int?
}

/// What a header says, with the format by its C core name ("jpeg", "png", …, "unknown").
struct CoreInfo: Sendable {
    var formatName: String
    var width: Int
    var height: Int
    var frames: Int
    var orientation: Int
    var bitDepth: Int
    var hasAlpha: Bool
    var isProgressive: Bool
    var isInterlaced: Bool
    var loopCount: Int?
}

/// A decoded image: RGBA8 frames of `width × height`, with their delays.
struct CoreDecoded: Sendable {
    var width: Int
    var height: Int
    var frames: [(pixels: [UInt8], delayMilliseconds: Int)]
    var loopCount: Int?
    var formatName: String
    var orientation: Int
    /// What became of the source's colour profile, and the profile when it was kept.
    var profileOutcome: CoreProfileOutcome = .none
    var profile: [UInt8]? = nil
}

/// What a decode did with the source's colour profile (MAGPIE_IMAGE_PROFILE_*).
enum CoreProfileOutcome: Sendable {
    case none, converted, kept, ignored
}

/// An encoding and its settings.
enum CoreEncoding: Sendable {
    case png(compressionLevel: Int, colors: Int)
    case jpeg(quality: Int, fullChroma: Bool, progressive: Bool)
    case webp(quality: Int, method: Int, preset: Int)
    case webpLossless(effort: Int, method: Int)
    case avif(quality: Int, speed: Int)
    case jxl(quality: Int, effort: Int)
    case gif(dithering: Int)
}
