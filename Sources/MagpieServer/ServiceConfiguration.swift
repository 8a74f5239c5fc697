import Magpie

/// How an ``ImageService`` answers: its signing keys, option presets and limits. The manager it
/// runs on (caches, downloader, address policy, decoding width) is configured apart.
public struct ServiceConfiguration: Sendable {
    /// A key and salt pair for URL signatures (imgproxy's `IMGPROXY_KEY` and `IMGPROXY_SALT`).
    public struct SigningKey: Sendable, Hashable {
        public var key: [UInt8]
        public var salt: [UInt8]
        public init(key: [UInt8], salt: [UInt8]) {
            self.key = key
            self.salt = salt
        }

        /// From hex strings (`--key HEX --salt HEX`); `nil` when either is not even-length hex or
        /// the key is empty.
        public init?(hexKey: String, hexSalt: String) {
            guard let key = Hex.decode(hexKey), !key.isEmpty, let salt = Hex.decode(hexSalt) else { return nil }
            self.init(key: key, salt: salt)
        }
    }

    /// Every pair a signature may be made with (several during a key rotation).
    public var keys: [SigningKey] = []
    /// Bytes of the HMAC the signature keeps (imgproxy's `IMGPROXY_SIGNATURE_SIZE`), 8 to 32.
    public var signatureSize = 32
    /// When set, every image request must carry `Authorization: Bearer <secret>` (imgproxy's
    /// `IMGPROXY_SECRET`, for a server only a CDN or an app should reach); else 403. `/health` is
    /// not asked for it.
    public var secret: String?
    /// Accept unsigned paths (any first segment without `:`); refused unless set, when no key is given.
    public var allowsUnsigned = false
    /// Signatures accepted as they are, without checking (imgproxy's `IMGPROXY_TRUSTED_SIGNATURES`:
    /// URLs signed by another key a deployment still honours).
    public var trustedSignatures: Set<String> = []
    /// Sent as `Access-Control-Allow-Origin` (with `Access-Control-Allow-Methods: GET, OPTIONS`) on
    /// image answers, and `OPTIONS` is answered 204 with them (imgproxy's `IMGPROXY_ALLOW_ORIGIN`).
    public var allowOrigin: String?
    /// Send `Link: <source>; rel="canonical"` for http(s) sources (`IMGPROXY_SET_CANONICAL_HEADER`).
    public var setsCanonicalHeader = false
    /// Mixed into every ETag, so changing it makes every cached copy stale (`IMGPROXY_ETAG_BUSTER`).
    public var etagBuster = ""
    /// An origin's `Last-Modified` earlier than this (seconds since 1970) is answered as this, so
    /// a client's `If-Modified-Since` before it is answered whole (imgproxy's
    /// `IMGPROXY_LAST_MODIFIED_BUSTER`); nil: the origin's as it is.
    public var lastModifiedBuster: Int?
    /// `Content-Disposition: attachment` unless a URL says `att:0` (`IMGPROXY_RETURN_ATTACHMENT`).
    public var returnsAttachment = false
    /// Served, processed with the request's options, when a source cannot be had
    /// (`IMGPROXY_FALLBACK_IMAGE_*`); never stored as the source's variant.
    public var fallback: FallbackImage?
    /// Named option lists `pr:name` expands to; `default` applies to every request first.
    public var presets: [String: [String]] = [:]
    /// How request paths are read: imgproxy's arguments separator, presets-only paths, allowed
    /// options, source rewrites, the path prefix.
    public var paths = PathRules()
    /// Largest width or height a request may ask for (after `dpr`).
    public var maxResultDimension = 8192
    /// `Cache-Control: max-age` of a result, in seconds (capped by `exp`). One year.
    public var ttl = 31_536_000
    /// Serve WebP to clients whose `Accept` names it, when the request names no format.
    public var autoWebP = false
    /// Serve AVIF to clients whose `Accept` names it, when the request names no format; it wins
    /// over WebP (imgproxy's `IMGPROXY_AUTO_AVIF`).
    public var autoAVIF = false
    /// Serve WebP to clients whose `Accept` names it even where the request names another format
    /// (imgproxy's `IMGPROXY_ENFORCE_WEBP`).
    public var enforceWebP = false
    /// The same for AVIF, stills only (`IMGPROXY_ENFORCE_AVIF`); it wins over WebP.
    public var enforceAVIF = false
    /// Serve JPEG XL to clients whose `Accept` names `image/jxl` where the request names no
    /// format, stills only; it wins over AVIF and WebP (imgproxy's `IMGPROXY_AUTO_JXL`).
    public var autoJXL = false
    /// The same where the request names a format too (`IMGPROXY_ENFORCE_JXL`).
    public var enforceJXL = false
    /// Read `Sec-CH-DPR`/`DPR` and `Sec-CH-Width`/`Width` as defaults a URL's `dpr` and `w`
    /// override (`IMGPROXY_ENABLE_CLIENT_HINTS`), with `Vary` naming them.
    public var clientHints = false
    /// Formats (file extensions) a result is written in where the request names none: the
    /// source's own when listed, else the first that can carry the result's alpha (animations:
    /// the first that animates); `nil`: Magpie's rule (`IMGPROXY_PREFERRED_FORMATS`).
    public var preferredFormats: [String]?
    /// libwebp's method for WebP results, 1 (fast) – 6 (small) (imgproxy's `IMGPROXY_WEBP_EFFORT`). 4.
    public var webpEffort = 4
    /// The AV1 encoder's speed for AVIF results, 0 (slowest, smallest) – 10 (imgproxy's
    /// `IMGPROXY_AVIF_SPEED`). 8.
    public var avifSpeed = 8
    /// What the service's metric names begin with, before `_` (imgproxy's
    /// `IMGPROXY_PROMETHEUS_NAMESPACE`); empty: no prefix. "magpie".
    public var metricsNamespace = "magpie"
    /// libjxl's effort for JPEG XL results, 1 (fastest) – 9 (smallest) (imgproxy's
    /// `IMGPROXY_JXL_EFFORT`). 4.
    public var jxlEffort = 4
    /// libwebp's preset for WebP results (imgproxy's `IMGPROXY_WEBP_PRESET`).
    public var webpPreset = EncodingFormat.WebPPreset.default
    /// PNG results written with a palette of at most this many colours, 2–256 (imgproxy's
    /// `IMGPROXY_PNG_QUANTIZE` with `IMGPROXY_PNG_QUANTIZATION_COLORS`); nil: truecolour.
    public var pngPaletteColors: Int?
    /// JPEGs written progressive (imgproxy's `IMGPROXY_JPEG_PROGRESSIVE`; `--jpeg-progressive`).
    public var jpegProgressive = false
    /// When not empty, a source URL must start with one of these (exact prefix match).
    public var allowedSources: [String] = []
    /// Clients' cookies passed on to http(s) sources (imgproxy's `IMGPROXY_COOKIE_PASSTHROUGH`);
    /// nil: none are. See ``cookieProblem()``.
    public var cookiePassthrough: CookiePassthrough?
    /// Answers carry the origin's lifetime for the source instead of ``ttl`` (imgproxy's
    /// `IMGPROXY_CACHE_CONTROL_PASSTHROUGH`; see `ImageService/cacheControl(_:_:)`).
    public var cacheControlPassthrough = false
    /// `local:///path` sources are files beneath this folder (the manager's downloader needs the
    /// `local` transport, `LocalRootLoader`); nil: they are refused (403).
    public var localRoot: String?
    /// Serve `s3://bucket/key` sources (imgproxy's `IMGPROXY_USE_S3`; the manager's downloader
    /// needs `ImageDownloader/Config/s3`); off: they are refused (403).
    public var s3Sources = false
    /// When not empty, the only buckets `s3://` sources may name (`IMGPROXY_S3_ALLOWED_BUCKETS`).
    public var s3AllowedBuckets: Set<String> = []
    /// Buckets `s3://` sources may not name (`IMGPROXY_S3_DENIED_BUCKETS`).
    public var s3DeniedBuckets: Set<String> = []
    /// Sent as `X-Magpie-Node` (which node of a fleet answered).
    public var nodeName: String?
    /// Image requests answered at once at most; past it a request is 429 with `Retry-After: 1`
    /// at once, before any work (`nil`: no limit). `/health` is never refused.
    public var maxInFlight: Int?
    /// Largest source in pixels (width × height from its header, before any decode). 50 MP.
    public var maxSourcePixels = 50_000_000
    /// Most frames a source may declare (a GIF's images, an APNG's frames). 1,000.
    public var maxFrames = 1000
    /// Frames of an animation processed, from the first (imgproxy's `IMGPROXY_MAX_ANIMATION_FRAMES`);
    /// 1 serves animations as their first frame. 1,000.
    public var maxAnimationFrames = 1000
    /// Width × height of an animation's frame (imgproxy's `IMGPROXY_MAX_ANIMATION_FRAME_RESOLUTION`).
    public var maxAnimationFramePixels = Int.max
    /// Most frames × width × height a source may declare. 1 GP.
    public var maxFramePixels = 1_000_000_000
    /// `.standard` shrinks JPEG and WebP sources on load to at least twice the output, as
    /// libvips (and so imgproxy) does; `.fast` only to just past it, as Pillow's `draft` (and so
    /// thumbor) does: fewer pixels decoded and filtered, a little sharpness lost; `.full` not at all
    /// (imgproxy's `IMGPROXY_DISABLE_SHRINK_ON_LOAD`).
    public var decodeQuality: DecodingOptions.Quality = .standard
    /// Resize in linear light (imgproxy's `IMGPROXY_USE_LINEAR_COLORSPACE`;
    /// `DecodingOptions/linearLight`): each result a variant of its own.
    public var linearLight = false
    /// Keep sources' colour profiles (pixels as stored, the profile embedded in the result) unless a
    /// URL says `scp:1`; `false` (imgproxy's `IMGPROXY_STRIP_COLOR_PROFILE` default): convert to
    /// sRGB and write no profile unless a URL says `scp:0`.
    public var keepsColorProfile = false
    /// Longest a request may take, from arrival to answer (download, decode and encode
    /// included); past it the answer is 503. 20 s (`nil`: no limit).
    public var requestTimeout: Double? = 20
    /// Bytes of encoded variants kept in memory (0: none), each for ``variantMemoryLifetime``
    /// seconds at most. 16 MiB (about a thousand thumbnails).
    public var variantMemoryLimit = 16 << 20
    /// How long a variant stays in memory before the disk tier (and the source's freshness) is
    /// asked again. 60 s.
    public var variantMemoryLifetime = 60.0

    /// The largest `bl` and `sh` sigma a request may ask for (the work grows with it: a kernel of
    /// 6 sigma + 1 taps each way). 20; the library's own limit is 100.
    public var maxSigma = 20.0
    /// The image `wm` composites (imgproxy's `IMGPROXY_WATERMARK_PATH`), decoded once; without
    /// one, a request with `wm` is 400.
    public var watermark: OverlayProcessor?

    /// The quality of results where a URL gives none (imgproxy's `IMGPROXY_QUALITY`). 80.
    public var quality = 80
    /// The quality per output format (file extension: `jpg`, `webp`) where a URL gives none
    /// (imgproxy's `IMGPROXY_FORMAT_QUALITY`; a URL's `fq` adds to it).
    public var formatQuality: [String: Int] = [:]
    /// Apply sources' EXIF orientation unless a URL says `ar:0` (imgproxy's `IMGPROXY_AUTO_ROTATE`).
    public var autoRotate = true
    /// Decode JPEGs' EXIF thumbnails where they are large enough, unless a URL says `eth:0`
    /// (imgproxy's `IMGPROXY_ENFORCE_THUMBNAIL`).
    public var enforcesThumbnail = false
    /// Write sources' EXIF copyright and artist into results unless a URL says `kcr:0`
    /// (imgproxy's `IMGPROXY_KEEP_COPYRIGHT`; off here, as Magpie writes no metadata by default).
    public var keepsCopyright = false
    /// Source formats (file extensions) answered unprocessed when the output is theirs
    /// (imgproxy's `IMGPROXY_SKIP_PROCESSING_FORMATS`; a URL's `skp` adds to them).
    public var skipProcessingFormats: Set<String> = []

    var variantDefaults: Variant.Defaults {
        Variant.Defaults(
            quality: quality, formatQuality: formatQuality, autoRotate: autoRotate,
            enforcesThumbnail: enforcesThumbnail, keepsCopyright: keepsCopyright,
            encoders: EncoderSettings(
                avifSpeed: avifSpeed, webpMethod: webpEffort, webpPreset: webpPreset, jxlEffort: jxlEffort,
                pngPaletteColors: pngPaletteColors, jpegProgressive: jpegProgressive),
            preferredFormats: preferredFormats)
    }

    /// thumbor's configuration (``ThumborSettings``): with it, thumbor's URLs are answered at the
    /// root, and imgproxy's only under ``PathRules/prefix`` when one is set.
    public var thumbor: ThumborSettings?

    public init() {}

    /// Whether `namespace` makes Prometheus names (`[a-zA-Z_:][a-zA-Z0-9_:]*`, or empty for none).
    public static func isMetricsNamespace(_ namespace: String) -> Bool {
        namespace.utf8.enumerated().allSatisfy { i, c in
            c == 0x5F || c == 0x3A || (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c)
                || (i > 0 && (0x30...0x39).contains(c))
        }
    }
}

/// Hexadecimal text.
enum Hex {
    static func decode(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var i = 0
        while i < digits.count {
            guard let high = value(digits[i]), let low = value(digits[i + 1]) else { return nil }
            bytes.append(high << 4 | low)
            i += 2
        }
        return bytes
    }

    private static func value(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
