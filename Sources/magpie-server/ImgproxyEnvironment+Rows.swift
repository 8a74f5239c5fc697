/// The rows of ``ImgproxyEnvironment``: imgproxy's variable, the flags it stands for, its parser.
extension ImgproxyEnvironment {
    static let rows: [Row] = [
        Row(variable: "IMGPROXY_KEY", flags: ["--key"], convert: hex("--key")),
        Row(variable: "IMGPROXY_SALT", flags: ["--salt"], convert: hex("--salt")),
        Row(variable: "IMGPROXY_SIGNATURE_SIZE", flags: ["--signature-size"], convert: int("--signature-size", 8...32)),
        Row(variable: "IMGPROXY_BIND", flags: ["--bind"], convert: bind("--bind")),
        Row(variable: "IMGPROXY_TTL", flags: ["--ttl"], convert: int("--ttl")),
        Row(
            variable: "IMGPROXY_MAX_SRC_RESOLUTION", flags: ["--max-src-pixels"],
            convert: megapixels("--max-src-pixels")),
        Row(variable: "IMGPROXY_MAX_SRC_FILE_SIZE", flags: ["--max-src-bytes"], convert: limit("--max-src-bytes")),
        Row(
            variable: "IMGPROXY_MAX_ANIMATION_FRAMES", flags: ["--max-animation-frames"],
            convert: int("--max-animation-frames", 1...1_000_000)),
        Row(
            variable: "IMGPROXY_MAX_ANIMATION_FRAME_RESOLUTION", flags: ["--max-animation-frame-pixels"],
            convert: megapixels("--max-animation-frame-pixels")),
        Row(
            variable: "IMGPROXY_MAX_RESULT_DIMENSION", flags: ["--max-result-dimension"],
            convert: limit("--max-result-dimension")),
        Row(variable: "IMGPROXY_ALLOWED_SOURCES", flags: ["--allowed-source"], convert: list("--allowed-source")),
        Row(variable: "IMGPROXY_PRESETS", flags: ["--preset"], convert: list("--preset")),
        Row(variable: "IMGPROXY_QUALITY", flags: ["--quality"], convert: int("--quality", 1...100)),
        Row(variable: "IMGPROXY_FORMAT_QUALITY", flags: ["--format-quality"], convert: formatQuality),
        Row(variable: "IMGPROXY_AUTO_WEBP", flags: ["--auto-webp"], convert: flag("--auto-webp")),
        Row(variable: "IMGPROXY_ENABLE_WEBP_DETECTION", flags: ["--auto-webp"], convert: flag("--auto-webp")),
        Row(variable: "IMGPROXY_AUTO_AVIF", flags: ["--auto-avif"], convert: flag("--auto-avif")),
        Row(variable: "IMGPROXY_ENABLE_AVIF_DETECTION", flags: ["--auto-avif"], convert: flag("--auto-avif")),
        Row(variable: "IMGPROXY_AVIF_SPEED", flags: ["--avif-speed"], convert: int("--avif-speed", 0...10)),
        Row(
            variable: "IMGPROXY_DOWNLOAD_TIMEOUT", flags: ["--download-timeout"],
            convert: int("--download-timeout", 1...3600)),
        Row(variable: "IMGPROXY_MAX_REDIRECTS", flags: ["--max-redirects"], convert: int("--max-redirects", 0...100)),
        Row(variable: "IMGPROXY_WORKERS", flags: ["--workers"], convert: int("--workers", 1...4096)),
        Row(variable: "IMGPROXY_WATERMARK_PATH", flags: ["--watermark-path"], convert: string("--watermark-path")),
        Row(variable: "IMGPROXY_SECRET", flags: ["--secret"], convert: string("--secret")),
        Row(
            variable: "IMGPROXY_LOCAL_FILESYSTEM_ROOT", flags: ["--local-root"], convert: string("--local-root")),
        Row(variable: "IMGPROXY_USE_S3", flags: ["--s3"], convert: flag("--s3")),
        Row(variable: "IMGPROXY_S3_ENDPOINT", flags: ["--s3-endpoint"], convert: string("--s3-endpoint")),
        Row(variable: "IMGPROXY_S3_REGION", flags: ["--s3-region"], convert: string("--s3-region")),
        Row(
            variable: "IMGPROXY_S3_ENDPOINT_USE_PATH_STYLE", flags: ["--s3-virtual-hosted"],
            convert: { v throws(Failure) in try bool(v) ? [] : ["--s3-virtual-hosted"] }),
        Row(variable: "IMGPROXY_PROMETHEUS_BIND", flags: ["--metrics-bind"], convert: bind("--metrics-bind")),
        Row(
            variable: "IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES", flags: ["--allow-loopback-sources"],
            convert: flag("--allow-loopback-sources")),
        Row(
            variable: "IMGPROXY_ALLOW_PRIVATE_SOURCE_ADDRESSES", flags: ["--allow-private-sources"],
            convert: flag("--allow-private-sources")),
        Row(
            variable: "IMGPROXY_ALLOW_LINK_LOCAL_SOURCE_ADDRESSES", flags: ["--allow-link-local-sources"],
            convert: flag("--allow-link-local-sources")),
        Row(
            variable: "IMGPROXY_AUTO_ROTATE", flags: ["--auto-rotate", "--no-auto-rotate"],
            convert: flag("--auto-rotate", off: "--no-auto-rotate")),
        Row(
            variable: "IMGPROXY_ENFORCE_THUMBNAIL", flags: ["--enforce-thumbnail"], convert: flag("--enforce-thumbnail")
        ),
        Row(variable: "IMGPROXY_KEEP_COPYRIGHT", flags: ["--keep-copyright"], convert: flag("--keep-copyright")),
        Row(
            variable: "IMGPROXY_STRIP_COLOR_PROFILE", flags: ["--keep-color-profile"],
            convert: { v throws(Failure) in try bool(v) ? [] : ["--keep-color-profile"] }),
        Row(
            variable: "IMGPROXY_SKIP_PROCESSING_FORMATS", flags: ["--skip-processing"],
            convert: list("--skip-processing")),
        Row(variable: "IMGPROXY_TIMEOUT", flags: ["--request-timeout"], convert: int("--request-timeout", 1...3600)),
        Row(
            variable: "IMGPROXY_READ_REQUEST_TIMEOUT", flags: ["--read-request-timeout"],
            convert: int("--read-request-timeout", 1...3600)),
        Row(
            variable: "IMGPROXY_KEEP_ALIVE_TIMEOUT", flags: ["--idle-timeout"], convert: int("--idle-timeout", 1...3600)
        ),
        Row(variable: "IMGPROXY_MAX_CLIENTS", flags: ["--max-connections"], convert: limit("--max-connections")),
    ]

    /// Variables people set that this server does not take, with why.
    static let unsupported: [String: String] = [
        "IMGPROXY_STRIP_METADATA": "results never carry metadata here but what --keep-copyright keeps",
        "IMGPROXY_USE_ETAG": "ETags are always sent and checked",
        "IMGPROXY_USE_LAST_MODIFIED": "Last-Modified is always passed on",
        "IMGPROXY_CONCURRENCY": "use --workers",
        "IMGPROXY_JPEG_PROGRESSIVE": "JPEGs are baseline",
        "IMGPROXY_PNG_INTERLACED": "PNGs are not interlaced",
        "IMGPROXY_ALLOW_SECURITY_OPTIONS": "msr, msfs, maf and mafr may always tighten and never loosen",
        "IMGPROXY_DEVELOPMENT_ERRORS_MODE": "error bodies never echo the request",
    ]
}
