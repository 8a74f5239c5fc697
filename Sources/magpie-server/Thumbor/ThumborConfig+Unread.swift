import MagpieServer

/// thumbor's keys this server does not read: ignored with the reason, or refused where the
/// value asks for what it will not do.
extension ThumborConfig {
    static let unreadRows: [Row] =
        refusals
        + ignored(
            ["MIN_WIDTH", "MIN_HEIGHT"],
            "only thumbor's upload handler reads them (a 412 for an image uploaded too small), and uploads are refused here"
        )
        + ignored(
            [
                "AUTO_JPG", "AUTO_PNG", "AUTO_HEIF", "HEIF_QUALITY", "PRESERVE_EXIF_INFO",
                "PRESERVE_EXIF_COPYRIGHT_INFO",
                "PRESERVE_IPTC_INFO", "ALLOW_ANIMATED_GIFS", "SVG_DPI", "SRGB_PROFILE",
                "MAX_AGE_TEMP_IMAGE", "AVIF_SPEED", "AVIF_CODEC", "AVIF_CODEC_FALLBACK",
            ],
            "not built yet for thumbor's URLs (docs/thumbor.md, still to come)")
        + ignored(
            [
                "ENGINE", "GIF_ENGINE", "USE_GIFSICLE_ENGINE", "PILLOW_JPEG_QTABLES", "PILLOW_JPEG_SUBSAMPLING",
                "PILLOW_PRESERVE_INDEXED_MODE", "PILLOW_RESAMPLING_FILTER", "ENGINE_THREADPOOL_SIZE", "FFMPEG_PATH",
            ],
            "images are decoded, resampled (Lanczos-3) and encoded by Magpie's own core, off the event loop")
        + ignored(
            [
                "STORAGE", "STORAGE_EXPIRATION_SECONDS", "FILE_STORAGE_ROOT_PATH", "MIXED_STORAGE_FILE_STORAGE",
                "MIXED_STORAGE_CRYPTO_STORAGE", "MIXED_STORAGE_DETECTOR_STORAGE", "MAX_ID_LENGTH",
                "COMPATIBILITY_LEGACY_STORAGE", "COMPATIBILITY_LEGACY_LOADER",
            ],
            "sources are kept by Magpie's disk cache (--cache-dir, --disk-limit), with its own expiry")
        + ignored(
            [
                "RESULT_STORAGE", "RESULT_STORAGE_EXPIRATION_SECONDS", "RESULT_STORAGE_FILE_STORAGE_ROOT_PATH",
                "RESULT_STORAGE_STORES_UNSAFE", "COMPATIBILITY_LEGACY_RESULT_STORAGE",
            ],
            "results are Magpie's variants, in the same disk cache (--cache-dir), for signed and unsafe URLs alike")
        + ignored(
            [
                "DETECTORS", "FACE_DETECTOR_CASCADE_FILE", "GLASSES_DETECTOR_CASCADE_FILE",
                "PROFILE_DETECTOR_CASCADE_FILE", "IGNORE_SMART_ERRORS",
            ],
            "no detectors here: `smart` crops as thumbor does without detectors (centred, or by halign/valign)")
        + ignored(
            [
                "REDIS_QUEUE_MODE", "REDIS_QUEUE_SERVER_HOST", "REDIS_QUEUE_SERVER_PORT", "REDIS_QUEUE_SERVER_DB",
                "REDIS_QUEUE_SERVER_PASSWORD", "REDIS_QUEUE_SENTINEL_INSTANCES", "REDIS_QUEUE_SENTINEL_PASSWORD",
                "REDIS_QUEUE_SENTINEL_MASTER_INSTANCE", "REDIS_QUEUE_SENTINEL_MASTER_PASSWORD",
                "REDIS_QUEUE_SENTINEL_MASTER_DB", "REDIS_QUEUE_SENTINEL_SOCKET_TIMEOUT", "SQS_QUEUE_KEY_ID",
                "SQS_QUEUE_KEY_SECRET", "SQS_QUEUE_REGION",
            ],
            "the queues of thumbor's detectors; there are none here")
        + ignored(
            ["METRICS", "STATSD_HOST", "STATSD_PORT", "STATSD_PREFIX"],
            "metrics are Prometheus's, at /metrics with --metrics (docs/operations.md)")
        + ignored(
            [
                "USE_CUSTOM_ERROR_HANDLING", "ERROR_HANDLER_MODULE", "SENTRY_DSN_URL", "SENTRY_ENVIRONMENT",
                "ERROR_FILE_LOGGER", "ERROR_FILE_NAME_USE_CONTEXT", "THUMBOR_LOG_CONFIG", "THUMBOR_LOG_FORMAT",
                "THUMBOR_LOG_DATE_FORMAT",
            ],
            "errors and requests go to the server's log on standard error (--log-level, --log-format)")
        + ignored(
            [
                "APP_CLASS", "HANDLER_LISTS", "GC_INTERVAL", "NON_BLOCKING_SOCKETS",
                "MAX_WAIT_SECONDS_BEFORE_IO_SHUTDOWN",
                "MAX_WAIT_SECONDS_BEFORE_SERVER_SHUTDOWN", "HTTP_LOADER_MAX_CLIENTS",
                "HTTP_LOADER_CURL_ASYNC_HTTP_CLIENT",
                "HTTP_LOADER_CURL_LOW_SPEED_LIMIT", "HTTP_LOADER_CURL_LOW_SPEED_TIME", "OPTIMIZERS", "JPEGTRAN_PATH",
                "JPEGTRAN_SCANS_FILE", "UPLOAD_MAX_SIZE", "UPLOAD_PUT_ALLOWED", "UPLOAD_DELETE_ALLOWED",
                "UPLOAD_DEFAULT_FILENAME", "UPLOAD_PHOTO_STORAGE",
            ],
            "Python's and tornado's machinery, which this server has its own of (--graceful-timeout, --workers, --max-connections)"
        )

    /// Keys whose value would have the server do what it will not: refused, with the reason.
    static let refusals: [Row] = [
        refused("HTTP_LOADER_VALIDATE_CERTS", "origins' certificates are always checked here") { $0 == .bool(false) },
        refused(
            "HTTP_LOADER_FORWARD_ALL_HEADERS",
            "a client's headers (its cookies, its Authorization) are not sent to origins"
        ) {
            $0 == .bool(true)
        },
        refused("HTTP_LOADER_FORWARD_USER_AGENT", "not built: origins are asked with HTTP_LOADER_DEFAULT_USER_AGENT") {
            $0 == .bool(true)
        },
        refused("HTTP_LOADER_FORWARD_HEADERS_WHITELIST", "not built: no client header is forwarded to origins") {
            $0 != .list([]) && $0 != .none
        },
        refused("HTTP_LOADER_PROXY_HOST", "not built: origins are fetched directly") { $0 != .none },
        refused("HTTP_LOADER_PROXY_PORT", "not built: origins are fetched directly") { $0 != .none },
        refused("HTTP_LOADER_PROXY_USERNAME", "not built: origins are fetched directly") { $0 != .none },
        refused("HTTP_LOADER_PROXY_PASSWORD", "not built: origins are fetched directly") { $0 != .none },
        refused("HTTP_LOADER_CA_CERTS", "not built: origins are checked against the system's certificates") {
            $0 != .none
        },
        refused("HTTP_LOADER_CLIENT_CERT", "not built: no client certificate is presented to origins") { $0 != .none },
        refused("HTTP_LOADER_CLIENT_KEY", "not built: no client certificate is presented to origins") { $0 != .none },
        refused("UPLOAD_ENABLED", "not built: this server does not take uploads") { $0 == .bool(true) },
        refused("USE_BLACKLIST", "not built: limit sources with ALLOWED_SOURCES and --allow-network") {
            $0 == .bool(true)
        },
        refused("STORES_CRYPTO_KEY_FOR_EACH_IMAGE", "not built: one SECURITY_KEY signs every URL") {
            $0 == .bool(true)
        },
        refused("URL_SIGNER", "only thumbor's default signer (base64 HMAC-SHA1) is built") {
            $0 != .string("libthumbor.url_signers.base64_hmac_sha1")
        },
    ]

    static func ignored(_ keys: [String], _ why: String) -> [Row] {
        keys.map { Row(key: $0, use: .ignored(why: why)) }
    }

    static func refused(_ key: String, _ why: String, when: @escaping @Sendable (Value) -> Bool) -> Row {
        Row(key: key, use: .refused(why: why, when: when))
    }
}
