import Foundation
import Magpie
import MagpieServer
import Testing

@testable import magpie_server

/// magpie-server's table of imgproxy's variables (`ImgproxyEnvironment`): every name of
/// imgproxy's list (`Tests/fixtures/imgproxy/variables.txt`) has exactly one row, every row is
/// in docs/configuration.md, and each kind of row does what it says.
@Suite struct ImgproxyVariableTableTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let names: [String] = {
        let text =
            (try? String(
                contentsOf: fixtures.appendingPathComponent("fixtures/imgproxy/variables.txt"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init).filter { $0.hasPrefix("IMGPROXY_") }
    }()

    @Test func everyVariableOfImgproxysListHasOneRow() throws {
        #expect(Self.names.count > 180, "the list is read")
        let rows = ImgproxyEnvironment.rows.map(\.variable)
        #expect(
            Set(rows).count == rows.count,
            "no variable has two rows: \(rows.filter { r in rows.filter { $0 == r }.count > 1 })")
        let missing = Self.names.filter { ImgproxyEnvironment.byName[$0] == nil }
        #expect(missing.isEmpty, "variables of imgproxy's list with no row: \(missing)")
        let extra = rows.filter { !Self.names.contains($0) }
        #expect(extra.isEmpty, "rows for names imgproxy does not read: \(extra)")
    }

    @Test func theDocumentationShowsEveryRow() throws {
        let docs = try String(
            contentsOf: Self.fixtures.deletingLastPathComponent().appendingPathComponent("docs/configuration.md"),
            encoding: .utf8)
        let undocumented = ImgproxyEnvironment.rows.map(\.variable).filter { !docs.contains("`\($0)`") }
        #expect(undocumented.isEmpty, "rows docs/configuration.md does not name: \(undocumented)")
    }

    @Test func readIgnoredAndRefusedRowsDoWhatTheySay() throws {
        let (arguments, notes) = try ImgproxyEnvironment.arguments(
            [
                "IMGPROXY_ARGUMENTS_SEPARATOR": ",", "IMGPROXY_URL_REPLACEMENTS": "s3x://*/=https://${1}.example/;a=b",
                "IMGPROXY_PATH_PREFIX": "images/?x", "IMGPROXY_SENTRY_DSN": "https://x@example/1",
                "IMGPROXY_IGNORE_SSL_VERIFICATION": "false", "IMGPROXY_NOT_A_THING": "1",
                "IMGPROXY_AUTO_WEBP": "true", "IMGPROXY_ENABLE_WEBP_DETECTION": "true",
            ], given: [])
        #expect(arguments.contains("--arguments-separator") && arguments.contains(","))
        #expect(arguments.filter { $0 == "--url-replacement" }.count == 2)
        #expect(arguments.contains("/images"), "imgproxy's URLPath: query cut, a leading / added")
        #expect(arguments.filter { $0 == "--auto-webp" }.count == 1, "two variables for one flag give it once")
        #expect(notes.contains { $0.hasPrefix("IMGPROXY_SENTRY_DSN: a vendor's error reporter") })
        #expect(notes.contains { $0.hasPrefix("IMGPROXY_NOT_A_THING is not one of imgproxy's variables") })
        #expect(!notes.contains { $0.contains("IMGPROXY_IGNORE_SSL_VERIFICATION") }, "false asks for nothing")
        for (name, value) in [
            ("IMGPROXY_IGNORE_SSL_VERIFICATION", "true"), ("IMGPROXY_USE_GCS", "1"), ("IMGPROXY_GCS_KEY", "{}"),
            ("IMGPROXY_NETWORK", "unix"), ("IMGPROXY_ENV_LOCAL_FILE_PATH", "/etc/imgproxy.env"),
            ("IMGPROXY_S3_ASSUME_ROLE_ARN", "arn:aws:iam::1:role/r"), ("IMGPROXY_SVG_UNLIMITED", "t"),
            ("IMGPROXY_SANITIZE_SVG", "false"), ("IMGPROXY_PRESERVE_HDR", "true"),
        ] {
            #expect(throws: ImgproxyEnvironment.Failure.self, "\(name)=\(value)") {
                try ImgproxyEnvironment.arguments([name: value], given: [])
            }
        }
        #expect(throws: Never.self) { try ImgproxyEnvironment.arguments(["IMGPROXY_NETWORK": "tcp4"], given: []) }
        let (asked, quiet) = try ImgproxyEnvironment.arguments(
            [
                "IMGPROXY_SANITIZE_SVG": "true", "IMGPROXY_PRESERVE_HDR": "false",
                "IMGPROXY_PROMETHEUS_NAMESPACE": "img",
            ],
            given: [])
        #expect(asked == ["--metrics-namespace", "img"] && quiet.isEmpty, "\(asked) \(quiet)")
        // imgproxy's 0 for "no limit" keeps Magpie's bound: a server facing strangers is bounded.
        let (zeros, _) = try ImgproxyEnvironment.arguments(
            ["IMGPROXY_MAX_SRC_FILE_SIZE": "0", "IMGPROXY_MAX_CLIENTS": "0", "IMGPROXY_MAX_RESULT_DIMENSION": "0"],
            given: [])
        #expect(zeros.isEmpty, "\(zeros)")
        #expect(throws: ImgproxyEnvironment.Failure.self) {
            try ImgproxyEnvironment.arguments(["IMGPROXY_URL_REPLACEMENTS": "no-equals"], given: [])
        }
    }

    /// imgproxy's keys and salts are hex slices: comma-separated pairs for rotation, under the old
    /// and the newest names; an item that is not hex stops the start.
    @Test func keysAndSaltsAreCommaSeparatedLists() throws {
        let (arguments, _) = try ImgproxyEnvironment.arguments(
            ["IMGPROXY_KEYS": "6b31, 6b32", "IMGPROXY_SALTS": "7331,7332"], given: [])
        #expect(arguments == ["--key", "6b31", "--key", "6b32", "--salt", "7331", "--salt", "7332"], "\(arguments)")
        let (old, notes) = try ImgproxyEnvironment.arguments(
            ["IMGPROXY_KEY": "6b31", "IMGPROXY_KEYS": "6b32", "IMGPROXY_SALT": "7331"], given: [])
        #expect(old == ["--key", "6b31", "--salt", "7331"], "\(old)")
        #expect(notes.contains { $0.hasPrefix("IMGPROXY_KEYS is set but so is IMGPROXY_KEY") }, "\(notes)")
        for bad in ["6b31,", "6b31,xyz", "6b3"] {
            #expect(throws: ImgproxyEnvironment.Failure.self, "\(bad)") {
                try ImgproxyEnvironment.arguments(["IMGPROXY_KEY": bad], given: [])
            }
        }
    }

    /// The names imgproxy's newest package configurations read: the trace switch onto its flag,
    /// the v4 spellings of refused features refused as the old ones are, the rest noted.
    @Test func theNewestNamesAreAnsweredAsTheirOlderSiblings() throws {
        let (arguments, notes) = try ImgproxyEnvironment.arguments(
            [
                "IMGPROXY_OPEN_TELEMETRY_PROPAGATE_EXTERNAL": "true", "IMGPROXY_OPEN_TELEMETRY_ENABLE_LOGS": "true",
                "IMGPROXY_GCS_ALLOWED_BUCKETS": "a,b", "IMGPROXY_SWIFT_DENIED_BUCKETS": "c",
                "IMGPROXY_PPROF_BIND": ":8088", "IMGPROXY_FAIL_ON_DEPRECATION": "true",
                "IMGPROXY_GCS_ENABLED": "false", "IMGPROXY_TIFF_UNLIMITED": "false",
            ], given: [])
        #expect(arguments == ["--otel-propagate-external"], "\(arguments)")
        for name in [
            "IMGPROXY_OPEN_TELEMETRY_ENABLE_LOGS", "IMGPROXY_GCS_ALLOWED_BUCKETS", "IMGPROXY_SWIFT_DENIED_BUCKETS",
            "IMGPROXY_PPROF_BIND", "IMGPROXY_FAIL_ON_DEPRECATION",
        ] {
            #expect(notes.contains { $0.hasPrefix("\(name): ") }, "\(name) is noted at start: \(notes)")
        }
        #expect(!notes.contains { $0.contains("IMGPROXY_GCS_ENABLED") }, "false asks for nothing")
        for (name, value) in [
            ("IMGPROXY_GCS_ENABLED", "true"), ("IMGPROXY_S3_DECRYPTION_CLIENT_ENABLED", "1"),
            ("IMGPROXY_TIFF_UNLIMITED", "true"),
            ("IMGPROXY_S3_ACCESS_POINTS", "b=arn:aws:s3:us-east-1:1:accesspoint/x"),
        ] {
            #expect(throws: ImgproxyEnvironment.Failure.self, "\(name)=\(value)") {
                try ImgproxyEnvironment.arguments([name: value], given: [])
            }
        }
    }

    /// The encoders' variables: JPEG XL negotiation and effort, PNG palettes, WebP presets, and
    /// JPEG XL's format quality, each onto its flag; out of imgproxy's ranges, refused at start.
    @Test func theEncoderVariablesSetTheirFlags() throws {
        let (arguments, notes) = try ImgproxyEnvironment.arguments(
            [
                "IMGPROXY_AUTO_JXL": "true", "IMGPROXY_ENFORCE_JXL": "false", "IMGPROXY_JXL_EFFORT": "6",
                "IMGPROXY_PNG_QUANTIZE": "1", "IMGPROXY_PNG_QUANTIZATION_COLORS": "64",
                "IMGPROXY_WEBP_PRESET": "photo", "IMGPROXY_FORMAT_QUALITY": "jxl=77,webp=79,gif=50",
                "IMGPROXY_DISABLE_SHRINK_ON_LOAD": "true", "IMGPROXY_LOG_FORMAT": "json",
            ], given: [])
        #expect(notes.isEmpty, "\(notes)")
        let expected = [
            ["--auto-jxl"], ["--jxl-effort", "6"], ["--png-quantize"], ["--png-quantization-colors", "64"],
            ["--webp-preset", "photo"], ["--format-quality", "jxl=77"], ["--format-quality", "webp=79"],
            ["--no-shrink-on-load"], ["--log-format", "json"],
        ]
        for flag in expected {
            let found = arguments.indices.contains { i in Array(arguments[i...].prefix(flag.count)) == flag }
            #expect(found, "\(flag) in \(arguments)")
        }
        #expect(!arguments.contains("--enforce-jxl"), "false asks for nothing")
        for (name, value) in [
            ("IMGPROXY_JXL_EFFORT", "0"), ("IMGPROXY_JXL_EFFORT", "10"), ("IMGPROXY_PNG_QUANTIZATION_COLORS", "1"),
            ("IMGPROXY_PNG_QUANTIZATION_COLORS", "257"),
        ] {
            #expect(throws: ImgproxyEnvironment.Failure.self, "\(name)=\(value)") {
                try ImgproxyEnvironment.arguments([name: value], given: [])
            }
        }
        // The flags onto the service's configuration, checked as imgproxy checks the variables.
        var c = ServiceConfiguration()
        let palette = ImageFormat.palettesAvailable ? ["--png-quantize", "--png-quantization-colors", "32"] : []
        try FormatOptions.parse(["--jxl-effort", "5", "--webp-preset", "text"] + palette).apply(to: &c)
        #expect(c.jxlEffort == 5 && c.webpPreset == .text && c.pngPaletteColors == (palette.isEmpty ? nil : 32))
        try FormatOptions.parse([]).apply(to: &c)
        #expect(c.jxlEffort == 4 && c.webpPreset == .default && c.pngPaletteColors == nil, "imgproxy's defaults")
        for bad in [["--jxl-effort", "0"], ["--webp-preset", "poster"], ["--png-quantization-colors", "300"]] {
            #expect(throws: (any Error).self, "\(bad)") { try FormatOptions.parse(bad).apply(to: &c) }
        }
    }
}

/// imgproxy's OpenTelemetry variables onto the OTLP/HTTP exporter: as imgproxy's
/// `mapDeprecatedConfig` maps them (`otel_test.go`), except gRPC, which is refused.
extension ImgproxyVariableTableTests {
    @Test func theOpenTelemetryVariablesReachTheExporter() throws {
        let (arguments, notes) = try ImgproxyEnvironment.arguments(
            [
                "IMGPROXY_OPEN_TELEMETRY_ENABLE": "true", "IMGPROXY_OPEN_TELEMETRY_ENDPOINT": "otel_endpoint:1234",
                "IMGPROXY_OPEN_TELEMETRY_PROTOCOL": "http", "IMGPROXY_OPEN_TELEMETRY_SERVICE_NAME": "images",
                "IMGPROXY_OPEN_TELEMETRY_CONNECTION_TIMEOUT": "3", "IMGPROXY_OPEN_TELEMETRY_ENABLE_METRICS": "true",
            ], given: [])
        let pairs = [
            ["--otel-enable"], ["--otel-collector", "otel_endpoint:1234"], ["--otel-protocol", "http"],
            ["--otel-service-name", "images"], ["--otel-timeout", "3"],
        ]
        for pair in pairs {
            let found = arguments.indices.contains { i in Array(arguments[i...].prefix(pair.count)) == pair }
            #expect(found, "\(pair) in \(arguments)")
        }
        #expect(arguments.count == 9, "\(arguments)")
        #expect(notes.contains { $0.hasPrefix("IMGPROXY_OPEN_TELEMETRY_ENABLE_METRICS: metrics are served") })
        for (name, value) in [
            ("IMGPROXY_OPEN_TELEMETRY_SERVER_CERT", "-----BEGIN CERTIFICATE-----"),
            ("IMGPROXY_OPEN_TELEMETRY_CLIENT_KEY", "k"), ("IMGPROXY_OPEN_TELEMETRY_GRPC_INSECURE", "1"),
        ] {
            #expect(throws: ImgproxyEnvironment.Failure.self, "\(name)") {
                try ImgproxyEnvironment.arguments([name: value], given: [])
            }
        }
        // The options: imgproxy's endpoint mapping (http or https before host:port), gRPC refused,
        // the OTLP/HTTP default when only enabled, the service name and the timeout in milliseconds.
        let mapped = try ImgproxyTelemetry.parse(["--otel-collector", "otel_endpoint:1234", "--otel-protocol", "https"])
        #expect(try mapped.endpoint(given: nil, environment: [:]) == "https://otel_endpoint:1234")
        #expect(throws: (any Error).self) {
            try ImgproxyTelemetry.parse(["--otel-collector", "otel_endpoint:1234"]).endpoint(
                given: nil, environment: [:])
        }
        let enabled = try ImgproxyTelemetry.parse(["--otel-enable"])
        #expect(try enabled.endpoint(given: nil, environment: [:]) == "http://localhost:4318")
        #expect(
            try enabled.endpoint(given: nil, environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"])
                == "http://c:4318")
        #expect(try enabled.endpoint(given: "http://given:4318", environment: [:]) == "http://given:4318")
        #expect(try ImgproxyTelemetry.parse([]).endpoint(given: nil, environment: [:]) == nil, "off by default")
        let env = try ImgproxyTelemetry.parse(["--otel-service-name", "images", "--otel-timeout", "3"])
            .environment(["OTEL_SERVICE_NAME": "old"])
        #expect(env["OTEL_SERVICE_NAME"] == "images" && env["OTEL_EXPORTER_OTLP_TIMEOUT"] == "3000")
    }
}

extension ImgproxyVariableTableTests {
    /// `--last-modified-buster` takes imgproxy's RFC 3339 times, offsets included.
    @Test func theLastModifiedBusterIsAnRFC3339Time() throws {
        for (text, seconds) in [("2020-01-01T00:00:00Z", 1_577_836_800), ("2020-01-01T02:00:00+02:00", 1_577_836_800)] {
            var c = ServiceConfiguration()
            var d = ImageDownloader.Config()
            try HeaderOptions.parse(["--last-modified-buster", text]).apply(to: &c, download: &d)
            #expect(c.lastModifiedBuster == seconds, "\(text)")
        }
        var c = ServiceConfiguration()
        var d = ImageDownloader.Config()
        #expect(throws: (any Error).self) {
            try HeaderOptions.parse(["--last-modified-buster", "yesterday"]).apply(to: &c, download: &d)
        }
    }
}

extension ImgproxyVariableTableTests {
    /// `IMGPROXY_SOURCE_URL_QUERY_SEPARATOR`: empty is a value (no query), as imgproxy reads it.
    @Test func anEmptyQuerySeparatorMeansNone() throws {
        for value in ["", "|"] {
            let (arguments, _) = try ImgproxyEnvironment.arguments(
                ["IMGPROXY_SOURCE_URL_QUERY_SEPARATOR": value], given: [])
            #expect(arguments == (value.isEmpty ? ["--no-source-query"] : ["--source-query-separator", value]))
            var c = ServiceConfiguration()
            try PathOptions.parse(arguments).apply(to: &c)
            #expect(c.paths.sourceQuerySeparator == value)
        }
    }
}
