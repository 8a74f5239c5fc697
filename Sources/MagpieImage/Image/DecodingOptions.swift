/// How to decode: output size, filter, orientation, frames and limits.
public struct DecodingOptions: Sendable, Hashable {
    /// How the output size is chosen. Sizes are of the upright image.
    public enum Resize: Sendable, Hashable {
        /// Largest size that fits inside `width × height`, aspect ratio kept.
        case fit(width: Int, height: Int)
        /// Covers `width × height` with the aspect ratio kept, centre-cropped to it.
        case fill(width: Int, height: Int)
        /// Exactly `width × height`; the aspect ratio is not kept.
        case exact(width: Int, height: Int)
        /// Aspect ratio kept, at most this many pixels.
        case maxPixels(Int)
    }

    /// Resampling filter for the final resize (after shrink-on-load). Never nearest-neighbour.
    public enum Filter: Sendable, Hashable {
        /// Windowed sinc, a = 3: sharp, the default.
        case lanczos3
        /// Mitchell–Netravali (B = C = 1/3): softer, less ringing.
        case mitchell
        /// Triangle filter: fastest.
        case bilinear
    }

    /// Fidelity against throughput for downscaling decodes.
    public enum Quality: Sendable, Hashable {
        /// Shrink-on-load keeps at least twice the output size, so the final filter has real
        /// detail to work with (Pillow's draft + thumbnail "reducing gap"): the default.
        case standard
        /// Shrink-on-load goes down to the output size itself (Pillow's `draft` alone): fewer
        /// pixels decoded and filtered, some sharpness lost (see the README for figures).
        case fast
        /// No shrink-on-load: JPEG and WebP are decoded at full size and the filter alone makes
        /// the output (imgproxy's `IMGPROXY_DISABLE_SHRINK_ON_LOAD`): the most detail, the most time.
        case full
    }

    /// Which frames of an animation to decode.
    public enum Frames: Sendable, Hashable {
        /// Every frame.
        case all
        /// One composited frame (0 is the first).
        case single(Int)
    }

    /// Resource limits; `nil` fields take the C core's defaults (300 Mpx, 1 GiB, 5000 frames,
    /// 1000 megapixels of animation work).
    public struct Limits: Sendable, Hashable {
        public var maxPixels: Int?
        public var maxBytes: Int?
        public var maxFrames: Int?
        /// The work an animation may take, in megapixels: each frame delivered costs the whole
        /// canvas, each frame decoded on the way its rectangle (`magpie_limits.max_frame_work`).
        public var maxFrameWork: Int?
        public init(maxPixels: Int? = nil, maxBytes: Int? = nil, maxFrames: Int? = nil, maxFrameWork: Int? = nil) {
            self.maxPixels = maxPixels
            self.maxBytes = maxBytes
            self.maxFrames = maxFrames
            self.maxFrameWork = maxFrameWork
        }
    }

    public var resize: Resize?
    public var filter: Filter
    /// Apply EXIF orientation (default `true`).
    public var appliesOrientation: Bool
    /// Let `resize` enlarge the image (default `false`; `.exact` always honours its size).
    public var allowsUpscaling: Bool
    public var frames: Frames
    public var limits: Limits
    /// `.standard` unless throughput matters more than the last dB (``Quality``).
    public var quality: Quality
    /// A rotation or flip applied after the EXIF orientation, composed with it into one transform
    /// while rows are written (no second pass). `resize` targets are of the transformed image.
    public var transform: Orientation = .up
    /// Keep the source's colour profile: pixels as stored, the profile on ``Image/colorProfile``
    /// for the encoder to embed. `false` (the default, as imgproxy): a source with an ICC profile
    /// (or AVIF CICP colours) is converted to sRGB after the resize and carries none. CMYK JPEGs are
    /// converted either way.
    public var keepsColorProfile = false
    /// Decode a JPEG's EXIF thumbnail in place of the image when it is at least the output's size
    /// and of the image's shape (imgproxy's `enforce_thumbnail`, where no detail is lost): the
    /// output is what the image would give. HEIC uses its thumbnails so by itself.
    public var usesEmbeddedThumbnail = false
    /// Resample in linear light: sRGB samples are decoded to linear light before the filters and
    /// encoded after them, so fine light-and-dark detail keeps its brightness (imgproxy's
    /// `IMGPROXY_USE_LINEAR_COLORSPACE`, libvips's scRGB); slower. Off: filtered as stored, as
    /// libvips does by default.
    public var linearLight = false

    public init(
        resize: Resize? = nil, filter: Filter = .lanczos3, appliesOrientation: Bool = true,
        allowsUpscaling: Bool = false, frames: Frames = .all, limits: Limits = Limits(),
        quality: Quality = .standard
    ) {
        self.quality = quality
        self.resize = resize
        self.filter = filter
        self.appliesOrientation = appliesOrientation
        self.allowsUpscaling = allowsUpscaling
        self.frames = frames
        self.limits = limits
    }

    /// Full size, orientation applied, every frame.
    public static let `default` = DecodingOptions()

    /// A thumbnail that fits inside `size × size`.
    public static func thumbnail(_ size: Int) -> DecodingOptions {
        DecodingOptions(resize: .fit(width: size, height: size))
    }
}
