import MagpieServer

/// The variables ``ImgproxyEnvironment`` reads: imgproxy's variable, the flags it stands for, its
/// parser. imgproxy's deprecated names (`IMGPROXY_WRITE_TIMEOUT`, `IMGPROXY_CONCURRENCY`…) are
/// read as imgproxy still reads them.
extension ImgproxyEnvironment {
    static let readRows: [Row] = [
        read("IMGPROXY_KEY", ["--key"], hex("--key")),
        read("IMGPROXY_SALT", ["--salt"], hex("--salt")),
        // The newest code's names for the same lists (its security package's configuration).
        read("IMGPROXY_KEYS", ["--key"], hex("--key")),
        read("IMGPROXY_SALTS", ["--salt"], hex("--salt")),
        read("IMGPROXY_SIGNATURE_SIZE", ["--signature-size"], int("--signature-size", 8...32)),
        read("IMGPROXY_BIND", ["--bind"], bind("--bind")),
        read("IMGPROXY_TTL", ["--ttl"], int("--ttl")),
        read("IMGPROXY_MAX_SRC_RESOLUTION", ["--max-src-pixels"], megapixels("--max-src-pixels")),
        read("IMGPROXY_MAX_SRC_FILE_SIZE", ["--max-src-bytes"], limit("--max-src-bytes")),
        read("IMGPROXY_MAX_ANIMATION_FRAMES", ["--max-animation-frames"], int("--max-animation-frames", 1...1_000_000)),
        read(
            "IMGPROXY_MAX_ANIMATION_FRAME_RESOLUTION", ["--max-animation-frame-pixels"],
            megapixels("--max-animation-frame-pixels")),
        read("IMGPROXY_MAX_RESULT_DIMENSION", ["--max-result-dimension"], limit("--max-result-dimension")),
        read("IMGPROXY_ALLOWED_SOURCES", ["--allowed-source"], list("--allowed-source")),
        read("IMGPROXY_PRESETS", ["--presets"], string("--presets")),
        read("IMGPROXY_PRESETS_SEPARATOR", ["--presets-separator"], string("--presets-separator")),
        read("IMGPROXY_PRESETS_PATH", ["--presets-path"], string("--presets-path")),
        read("IMGPROXY_ONLY_PRESETS", ["--only-presets"], flag("--only-presets")),
        read(
            "IMGPROXY_SOURCE_URL_QUERY_SEPARATOR", ["--source-query-separator", "--no-source-query"],
            { v in v.isEmpty ? ["--no-source-query"] : ["--source-query-separator", v] }),
        read("IMGPROXY_ARGUMENTS_SEPARATOR", ["--arguments-separator"], string("--arguments-separator")),
        read("IMGPROXY_ALLOWED_PROCESSING_OPTIONS", ["--allowed-option"], list("--allowed-option")),
        read("IMGPROXY_BASE_URL", ["--base-url"], string("--base-url")),
        read("IMGPROXY_URL_REPLACEMENTS", ["--url-replacement"], replacements),
        read(
            "IMGPROXY_BASE64_URL_INCLUDES_FILENAME", ["--base64-url-includes-filename"],
            flag("--base64-url-includes-filename")),
        read("IMGPROXY_PATH_PREFIX", ["--path-prefix"], urlPath("--path-prefix")),
        read("IMGPROXY_HEALTH_CHECK_PATH", ["--health-check-path"], urlPath("--health-check-path")),
        read("IMGPROXY_QUALITY", ["--quality"], int("--quality", 1...100)),
        read("IMGPROXY_FORMAT_QUALITY", ["--format-quality"], formatQuality),
        read("IMGPROXY_AUTO_WEBP", ["--auto-webp"], flag("--auto-webp")),
        read("IMGPROXY_ENABLE_WEBP_DETECTION", ["--auto-webp"], flag("--auto-webp")),
        read("IMGPROXY_AUTO_AVIF", ["--auto-avif"], flag("--auto-avif")),
        read("IMGPROXY_ENABLE_AVIF_DETECTION", ["--auto-avif"], flag("--auto-avif")),
        read("IMGPROXY_AVIF_SPEED", ["--avif-speed"], int("--avif-speed", 0...10)),
        read("IMGPROXY_ENFORCE_WEBP", ["--enforce-webp"], flag("--enforce-webp")),
        read("IMGPROXY_ENFORCE_AVIF", ["--enforce-avif"], flag("--enforce-avif")),
        read("IMGPROXY_PREFERRED_FORMATS", ["--preferred-format"], list("--preferred-format")),
        read("IMGPROXY_ENABLE_CLIENT_HINTS", ["--client-hints"], flag("--client-hints")),
        read("IMGPROXY_LOG_LEVEL", ["--log-level"], string("--log-level")),
        read("IMGPROXY_LOG_FORMAT", ["--log-format"], string("--log-format")),
        read("IMGPROXY_OPEN_TELEMETRY_ENABLE", ["--otel-enable"], flag("--otel-enable")),
        read("IMGPROXY_OPEN_TELEMETRY_ENDPOINT", ["--otel-collector"], string("--otel-collector")),
        read("IMGPROXY_OPEN_TELEMETRY_PROTOCOL", ["--otel-protocol"], string("--otel-protocol")),
        read("IMGPROXY_OPEN_TELEMETRY_SERVICE_NAME", ["--otel-service-name"], string("--otel-service-name")),
        read("IMGPROXY_OPEN_TELEMETRY_CONNECTION_TIMEOUT", ["--otel-timeout"], int("--otel-timeout", 1...3600)),
        read(
            "IMGPROXY_OPEN_TELEMETRY_PROPAGATE_EXTERNAL", ["--otel-propagate-external"],
            flag("--otel-propagate-external")),
        read("IMGPROXY_WEBP_EFFORT", ["--webp-effort"], int("--webp-effort", 1...6)),
        read("IMGPROXY_WEBP_PRESET", ["--webp-preset"], string("--webp-preset")),
        read("IMGPROXY_AUTO_JXL", ["--auto-jxl"], flag("--auto-jxl")),
        read("IMGPROXY_ENFORCE_JXL", ["--enforce-jxl"], flag("--enforce-jxl")),
        read("IMGPROXY_DISABLE_SHRINK_ON_LOAD", ["--no-shrink-on-load"], flag("--no-shrink-on-load")),
        read("IMGPROXY_JXL_EFFORT", ["--jxl-effort"], int("--jxl-effort", 1...9)),
        read("IMGPROXY_PNG_QUANTIZE", ["--png-quantize"], flag("--png-quantize")),
        read("IMGPROXY_JPEG_PROGRESSIVE", ["--jpeg-progressive"], flag("--jpeg-progressive")),
        read(
            "IMGPROXY_PNG_QUANTIZATION_COLORS", ["--png-quantization-colors"], int("--png-quantization-colors", 2...256)
        ),
        read("IMGPROXY_REQUESTS_QUEUE_SIZE", ["--requests-queue-size"], int("--requests-queue-size")),
        read(
            "IMGPROXY_CLIENT_KEEP_ALIVE_TIMEOUT", ["--origin-keep-alive-timeout"],
            int("--origin-keep-alive-timeout", 0...3600)),
        read(
            "IMGPROXY_WRITE_RESPONSE_TIMEOUT", ["--write-response-timeout"], int("--write-response-timeout", 1...3600)),
        read("IMGPROXY_DOWNLOAD_TIMEOUT", ["--download-timeout"], int("--download-timeout", 1...3600)),
        read("IMGPROXY_MAX_REDIRECTS", ["--max-redirects"], int("--max-redirects", 0...100)),
        read("IMGPROXY_WORKERS", ["--workers"], int("--workers", 1...4096)),
        read("IMGPROXY_CONCURRENCY", ["--workers"], int("--workers", 1...4096)),
        read("IMGPROXY_WATERMARK_PATH", ["--watermark-path"], string("--watermark-path")),
        read("IMGPROXY_WATERMARK_URL", ["--watermark-url"], string("--watermark-url")),
        read("IMGPROXY_WATERMARK_DATA", ["--watermark-data"], string("--watermark-data")),
        read("IMGPROXY_WATERMARK_OPACITY", ["--watermark-opacity"], string("--watermark-opacity")),
        read("IMGPROXY_SECRET", ["--secret"], string("--secret")),
        read("IMGPROXY_LOCAL_FILESYSTEM_ROOT", ["--local-root"], string("--local-root")),
        read("IMGPROXY_USE_S3", ["--s3"], flag("--s3")),
        read("IMGPROXY_S3_ENDPOINT", ["--s3-endpoint"], string("--s3-endpoint")),
        read("IMGPROXY_S3_REGION", ["--s3-region"], string("--s3-region")),
        read("IMGPROXY_S3_ALLOWED_BUCKETS", ["--s3-allowed-bucket"], list("--s3-allowed-bucket")),
        read("IMGPROXY_S3_DENIED_BUCKETS", ["--s3-denied-bucket"], list("--s3-denied-bucket")),
        read("IMGPROXY_S3_ENDPOINT_USE_PATH_STYLE", ["--s3-virtual-hosted"], unlessTrue("--s3-virtual-hosted")),
        read("IMGPROXY_PROMETHEUS_BIND", ["--metrics-bind"], bind("--metrics-bind")),
        read("IMGPROXY_PROMETHEUS_NAMESPACE", ["--metrics-namespace"], { v in ["--metrics-namespace", v] }),
        read(
            "IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES", ["--allow-loopback-sources"],
            flag("--allow-loopback-sources")),
        read(
            "IMGPROXY_ALLOW_PRIVATE_SOURCE_ADDRESSES", ["--allow-private-sources"], flag("--allow-private-sources")),
        read(
            "IMGPROXY_ALLOW_LINK_LOCAL_SOURCE_ADDRESSES", ["--allow-link-local-sources"],
            flag("--allow-link-local-sources")),
        read(
            "IMGPROXY_AUTO_ROTATE", ["--auto-rotate", "--no-auto-rotate"],
            flag("--auto-rotate", off: "--no-auto-rotate")),
        read("IMGPROXY_ENFORCE_THUMBNAIL", ["--enforce-thumbnail"], flag("--enforce-thumbnail")),
        read("IMGPROXY_KEEP_COPYRIGHT", ["--keep-copyright"], flag("--keep-copyright")),
        read("IMGPROXY_STRIP_COLOR_PROFILE", ["--keep-color-profile"], unlessTrue("--keep-color-profile")),
        read("IMGPROXY_SKIP_PROCESSING_FORMATS", ["--skip-processing"], list("--skip-processing")),
        read("IMGPROXY_TIMEOUT", ["--request-timeout"], int("--request-timeout", 1...3600)),
        read("IMGPROXY_WRITE_TIMEOUT", ["--request-timeout"], int("--request-timeout", 1...3600)),
        read("IMGPROXY_READ_REQUEST_TIMEOUT", ["--read-request-timeout"], int("--read-request-timeout", 1...3600)),
        read("IMGPROXY_READ_TIMEOUT", ["--read-request-timeout"], int("--read-request-timeout", 1...3600)),
        read("IMGPROXY_KEEP_ALIVE_TIMEOUT", ["--idle-timeout"], int("--idle-timeout", 1...3600)),
        read("IMGPROXY_GRACEFUL_STOP_TIMEOUT", ["--graceful-timeout"], int("--graceful-timeout", 0...3600)),
        read("IMGPROXY_MAX_CLIENTS", ["--max-connections"], limit("--max-connections")),
        read("IMGPROXY_ALLOW_ORIGIN", ["--allow-origin"], string("--allow-origin")),
        read("IMGPROXY_SET_CANONICAL_HEADER", ["--canonical-header"], flag("--canonical-header")),
        read("IMGPROXY_ETAG_BUSTER", ["--etag-buster"], string("--etag-buster")),
        read("IMGPROXY_LAST_MODIFIED_BUSTER", ["--last-modified-buster"], string("--last-modified-buster")),
        read("IMGPROXY_RETURN_ATTACHMENT", ["--return-attachment"], flag("--return-attachment")),
        read("IMGPROXY_TRUSTED_SIGNATURES", ["--trusted-signature"], list("--trusted-signature")),
        read("IMGPROXY_USER_AGENT", ["--user-agent"], string("--user-agent")),
        read("IMGPROXY_USE_LINEAR_COLORSPACE", ["--linear-colorspace"], flag("--linear-colorspace")),
        read(
            "IMGPROXY_CACHE_CONTROL_PASSTHROUGH", ["--cache-control-passthrough"], flag("--cache-control-passthrough")),
        read("IMGPROXY_COOKIE_PASSTHROUGH", ["--cookie-passthrough"], flag("--cookie-passthrough")),
        read("IMGPROXY_COOKIE_BASE_URL", ["--cookie-base-url"], string("--cookie-base-url")),
        read("IMGPROXY_COOKIE_PASSTHROUGH_ALL", ["--cookie-passthrough-all"], flag("--cookie-passthrough-all")),
        read("IMGPROXY_FALLBACK_IMAGE_PATH", ["--fallback-image-path"], string("--fallback-image-path")),
        read("IMGPROXY_FALLBACK_IMAGE_URL", ["--fallback-image-url"], string("--fallback-image-url")),
        read("IMGPROXY_FALLBACK_IMAGE_DATA", ["--fallback-image-data"], string("--fallback-image-data")),
        read(
            "IMGPROXY_FALLBACK_IMAGE_HTTP_CODE", ["--fallback-image-http-code"],
            int("--fallback-image-http-code", 0...599)),
        read("IMGPROXY_FALLBACK_IMAGE_TTL", ["--fallback-image-ttl"], int("--fallback-image-ttl")),
    ]

    /// `pattern=replacement;…`, each an argument of `--url-replacement`.
    @Sendable static func replacements(_ v: String) throws(Failure) -> [String] {
        guard SourceReplacement.list(v) != nil else {
            throw Failure(description: "not PATTERN=REPLACEMENT;… (at most 16 * a pattern)")
        }
        return v.split(separator: ";").flatMap { ["--url-replacement", String($0)] }
    }
}
