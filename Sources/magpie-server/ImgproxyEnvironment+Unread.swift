/// The variables ``ImgproxyEnvironment`` does not read: accepted and ignored with why, or refused
/// at start where what they ask would be unsafe or impossible here.
extension ImgproxyEnvironment {
    static let unreadRows: [Row] =
        ignored(["IMGPROXY_STRIP_METADATA"], "results carry no metadata but what --keep-copyright keeps")
        + ignored(
            ["IMGPROXY_USE_ETAG", "IMGPROXY_USE_LAST_MODIFIED"], "ETag and Last-Modified are always sent and checked")
        + ignored(["IMGPROXY_PNG_INTERLACED"], "PNGs are written without interlacing")
        + ignored(["IMGPROXY_ALLOW_SECURITY_OPTIONS"], "msr, msfs, maf and mafr may always tighten, never loosen")
        + ignored(["IMGPROXY_DEVELOPMENT_ERRORS_MODE"], "error bodies never echo the request")
        + ignored(["IMGPROXY_ALWAYS_RASTERIZE_SVG"], "SVG sources are always drawn into pixels here")
        + ignored(["IMGPROXY_MAX_SVG_CHECK_BYTES"], "SVG is recognised by its first bytes and parsed with bounds")
        + ignored(["IMGPROXY_ENABLE_DEBUG_HEADERS"], "X-Magpie-Cache and X-Request-ID are always sent")
        + ignored(
            [
                "IMGPROXY_FREE_MEMORY_INTERVAL", "IMGPROXY_DOWNLOAD_BUFFER_SIZE",
                "IMGPROXY_BUFFER_POOL_CALIBRATION_THRESHOLD", "IMGPROXY_MALLOC", "IMGPROXY_VIPS_LEAK_CHECK",
                "IMGPROXY_VIPS_CACHE_TRACE",
            ], "a tuning knob of Go's runtime or libvips, which this server does not run on")
        + ignored(
            ["IMGPROXY_PPROF_BIND"],
            "Go's profiler: this server opens no debug port (profile it with perf or heaptrack, docs/benchmarks.md)")
        + ignored(
            ["IMGPROXY_LOG_MEM_STATS"], "memory is reported on /metrics (magpie_process_resident_bytes), not logged")
        + ignored(
            ["IMGPROXY_FAIL_ON_DEPRECATION"],
            "imgproxy's deprecated names are read here as imgproxy still reads them, and none stops the start")
        + ignored(
            [
                "IMGPROXY_DATADOG_ENABLE", "IMGPROXY_DATADOG_ENABLE_ADDITIONAL_METRICS", "IMGPROXY_NEW_RELIC_APP_NAME",
                "IMGPROXY_NEW_RELIC_KEY", "IMGPROXY_NEW_RELIC_LABELS", "IMGPROXY_CLOUD_WATCH_SERVICE_NAME",
                "IMGPROXY_CLOUD_WATCH_NAMESPACE", "IMGPROXY_CLOUD_WATCH_REGION", "IMGPROXY_DATADOG_PROPAGATE_EXTERNAL",
                "IMGPROXY_NEW_RELIC_PROPAGATE_EXTERNAL",
            ], "a vendor's monitoring this server has no client for (it serves Prometheus metrics and OTLP traces)")
        + ignored(
            [
                "IMGPROXY_BUGSNAG_KEY", "IMGPROXY_BUGSNAG_STAGE", "IMGPROXY_HONEYBADGER_KEY",
                "IMGPROXY_HONEYBADGER_ENV",
                "IMGPROXY_SENTRY_DSN", "IMGPROXY_SENTRY_ENVIRONMENT", "IMGPROXY_SENTRY_RELEASE",
                "IMGPROXY_AIRBRAKE_PROJECT_ID", "IMGPROXY_AIRBRAKE_PROJECT_KEY", "IMGPROXY_AIRBRAKE_ENVIRONMENT",
                "IMGPROXY_REPORT_DOWNLOADING_ERRORS", "IMGPROXY_REPORT_IO_ERRORS",
            ], "a vendor's error reporter this server has no client for (errors go to its log)")
        + ignored(
            [
                "IMGPROXY_SYSLOG_ENABLE", "IMGPROXY_SYSLOG_LEVEL", "IMGPROXY_SYSLOG_NETWORK", "IMGPROXY_SYSLOG_ADDRESS",
                "IMGPROXY_SYSLOG_TAG",
            ], "the log goes to standard error, for journald or the container's collector")
        + ignored(
            [
                "IMGPROXY_GCS_ENDPOINT", "IMGPROXY_ABS_NAME", "IMGPROXY_ABS_KEY", "IMGPROXY_ABS_ENDPOINT",
                "IMGPROXY_SWIFT_USERNAME", "IMGPROXY_SWIFT_API_KEY", "IMGPROXY_SWIFT_AUTH_URL", "IMGPROXY_SWIFT_DOMAIN",
                "IMGPROXY_SWIFT_TENANT", "IMGPROXY_SWIFT_CONNECT_TIMEOUT_SECONDS", "IMGPROXY_SWIFT_TIMEOUT_SECONDS",
                "IMGPROXY_SWIFT_AUTH_VERSION",
                // Lists that narrow a source kind refused below: nothing to narrow.
                "IMGPROXY_GCS_ALLOWED_BUCKETS", "IMGPROXY_GCS_DENIED_BUCKETS", "IMGPROXY_ABS_ALLOWED_BUCKETS",
                "IMGPROXY_ABS_DENIED_BUCKETS", "IMGPROXY_SWIFT_ALLOWED_BUCKETS", "IMGPROXY_SWIFT_DENIED_BUCKETS",
            ], "a setting of a source kind this server does not read (gs://, abs://, swift://)")
        + refused(
            ["IMGPROXY_USE_GCS", "IMGPROXY_GCS_ENABLED", "IMGPROXY_GCS_KEY"],
            "Google Cloud Storage sources (gs://) are not supported; serve them through their HTTPS URLs")
        + refused(["IMGPROXY_USE_ABS"], "Azure Blob Storage sources (abs://) are not supported")
        + refused(["IMGPROXY_USE_SWIFT"], "OpenStack Swift sources (swift://) are not supported")
        + refused(
            ["IMGPROXY_S3_ASSUME_ROLE_ARN", "IMGPROXY_S3_ASSUME_ROLE_EXTERNAL_ID"],
            "there is no STS client here: give the role's credentials in AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN"
        )
        + refused(
            ["IMGPROXY_S3_USE_DECRYPTION_CLIENT", "IMGPROXY_S3_DECRYPTION_CLIENT_ENABLED"],
            "S3 client-side decryption is not supported")
        + refused(
            ["IMGPROXY_S3_ACCESS_POINTS"],
            "S3 access points are not resolved from ARNs here: give the access point's endpoint to --s3-endpoint")
        + refused(["IMGPROXY_IGNORE_SSL_VERIFICATION"], "unsafe: an origin's certificate is always verified")
        + refused(
            ["IMGPROXY_SANITIZE_SVG"],
            "unsafe: an SVG answered as it is (raw, skp) always goes with a policy that lets it run and load nothing",
            when: { ["0", "f", "F", "false", "FALSE", "False"].contains($0) })
        + refused(
            [
                "IMGPROXY_OPEN_TELEMETRY_SERVER_CERT", "IMGPROXY_OPEN_TELEMETRY_CLIENT_CERT",
                "IMGPROXY_OPEN_TELEMETRY_CLIENT_KEY",
            ],
            "TLS material for the collector is not read from variables: the exporter checks the collector against the "
                + "system's CA store and sends no client certificate")
        + refused(
            ["IMGPROXY_OPEN_TELEMETRY_GRPC_INSECURE"], "gRPC is not spoken here: traces go over OTLP/HTTP (protobuf)")
        + ignored(
            ["IMGPROXY_OPEN_TELEMETRY_ENABLE_METRICS"],
            "metrics are served for Prometheus at /metrics (--metrics), not pushed over OTLP")
        + ignored(["IMGPROXY_OPEN_TELEMETRY_TRACE_ID_GENERATOR"], "trace IDs are random W3C IDs here")
        + ignored(
            ["IMGPROXY_OPEN_TELEMETRY_ENABLE_LOGS", "IMGPROXY_OPEN_TELEMETRY_LOGGER_NAME"],
            "the log goes to standard error (journald or the container's collector forwards it), not over OTLP")
        + ignored(
            ["IMGPROXY_OPEN_TELEMETRY_PROPAGATORS"], "an incoming W3C traceparent is continued; no other is read")
        + refused(
            ["IMGPROXY_SO_REUSEPORT"],
            "the listener binds its port alone (Hummingbird sets no SO_REUSEPORT): run one magpie-server per port "
                + "behind nginx or HAProxy (docs/fleet.md)")
        + refused(
            ["IMGPROXY_PRESERVE_HDR"], "impossible here: results are written 8 bits a sample (HDR sources are reduced)")
        + refused(
            ["IMGPROXY_PNG_UNLIMITED", "IMGPROXY_SVG_UNLIMITED", "IMGPROXY_TIFF_UNLIMITED"],
            "unsafe: the limits on PNG, SVG and TIFF sources always apply")
        + refused(
            ["IMGPROXY_NETWORK"], "only TCP is served (put nginx before a Unix socket)",
            when: { !["", "tcp", "tcp4", "tcp6"].contains($0) })
        + refused(
            [
                "IMGPROXY_ENV_LOCAL_FILE_PATH", "IMGPROXY_ENV_AWS_SECRET_ID", "IMGPROXY_ENV_AWS_SECRET_VERSION_ID",
                "IMGPROXY_ENV_AWS_SECRET_VERSION_STAGE", "IMGPROXY_ENV_AWS_SECRET_REGION",
                "IMGPROXY_ENV_AWS_SSM_PARAMETERS_PATH", "IMGPROXY_ENV_AWS_SSM_PARAMETERS_REGION",
                "IMGPROXY_ENV_GCP_SECRET_ID", "IMGPROXY_ENV_GCP_SECRET_VERSION_ID",
                "IMGPROXY_ENV_GCP_SECRET_PROJECT_ID",
                "IMGPROXY_ENV_GCP_KEY",
            ], "configuration is not fetched from files or secret stores here: put the variables in the environment",
            when: { !$0.isEmpty })
}
