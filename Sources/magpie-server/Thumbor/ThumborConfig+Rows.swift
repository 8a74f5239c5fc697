import MagpieServer

/// The keys ``ThumborConfig`` reads: into ``ThumborSettings`` (thumbor's URLs' answers) or as the
/// server's own flags.
extension ThumborConfig {
    static let readRows: [Row] = [
        setting("SECURITY_KEY") { s, v throws(Failure) in s.securityKey = try text(v) },
        setting("ALLOW_UNSAFE_URL") { s, v throws(Failure) in s.allowsUnsafe = try bool(v) },
        setting("ALLOWED_SOURCES") { s, v throws(Failure) in s.allowedSources = try texts(v) },
        setting("MAX_WIDTH") { s, v throws(Failure) in s.maxWidth = try int(v, 0...65_536) },
        setting("MAX_HEIGHT") { s, v throws(Failure) in s.maxHeight = try int(v, 0...65_536) },
        setting("MAX_PIXELS") { s, v throws(Failure) in
            s.maxPixels = Int(min(Double(Int.max / 2), max(1, try number(v))))
        },
        setting("QUALITY") { s, v throws(Failure) in s.quality = try int(v, 1...100) },
        setting("META_CALLBACK_NAME") { s, v throws(Failure) in
            s.metaCallback = v == .none ? nil : try text(v)
            if let name = s.metaCallback, !ThumborSettings.isCallbackName(name) {
                throw Failure(description: "a callback is identifiers joined by dots, at most 128 characters")
            }
        },
        setting("AUTO_PNG_TO_JPG") { s, v throws(Failure) in s.autoPNGToJPG = try bool(v) },
        setting("PROGRESSIVE_JPEG") { s, v throws(Failure) in s.progressiveJPEG = try bool(v) },
        setting("PNG_COMPRESSION_LEVEL") { s, v throws(Failure) in s.pngCompressionLevel = try int(v, 0...9) },
        setting("WEBP_QUALITY") { s, v throws(Failure) in s.webpQuality = v == .none ? nil : try int(v, 1...100) },
        setting("AVIF_QUALITY") { s, v throws(Failure) in s.avifQuality = v == .none ? nil : try int(v, 1...100) },
        setting("AUTO_WEBP") { s, v throws(Failure) in s.autoWebP = try bool(v) },
        setting("AUTO_AVIF") { s, v throws(Failure) in s.autoAVIF = try bool(v) },
        setting("RESPECT_ORIENTATION") { s, v throws(Failure) in s.respectsOrientation = try bool(v) },
        setting("MAX_AGE") { s, v throws(Failure) in s.maxAge = try int(v, 0...Int(Int32.max)) },
        setting("ENABLE_ETAGS") { s, v throws(Failure) in s.etags = try bool(v) },
        setting("SEND_IF_MODIFIED_LAST_MODIFIED_HEADERS") { s, v throws(Failure) in s.lastModified = try bool(v) },
        setting("HEALTHCHECK_ROUTE") { s, v throws(Failure) in
            let route = try text(v)
            guard route.hasPrefix("/") else { throw Failure(description: "a route starts with /") }
            s.healthCheckRoute = route
        },
        // The filters' modules: thumbor's own by their last part; another module is no filter
        // this server has (its URLs' use of it is skipped, as thumbor skips an unknown filter).
        setting("FILTERS") { s, v throws(Failure) in
            s.filters = Set(
                try texts(v).compactMap { m in
                    m.hasPrefix("thumbor.filters.") ? String(m.dropFirst("thumbor.filters.".count)) : nil
                })
        },
        // thumbor's HTTP loader, or its file loader (paths under FILE_LOADER_ROOT_PATH: the local
        // root, whose confinement refuses a path that leaves it).
        setting("LOADER") { s, v throws(Failure) in
            switch try text(v) {
            case "thumbor.loaders.http_loader", "thumbor.loaders.strict_https_loader": s.loadsFiles = false
            case "thumbor.loaders.file_loader": s.loadsFiles = true
            case let other:
                throw Failure(description: "\(other) is not a loader this server has (http_loader, file_loader)")
            }
        },
        arguments("FILE_LOADER_ROOT_PATH", ["--local-root"]) { v throws(Failure) in ["--local-root", try text(v)] },
        arguments("ACCESS_CONTROL_ALLOW_ORIGIN_HEADER", ["--allow-origin"]) { v throws(Failure) in
            v == .bool(false) ? [] : ["--allow-origin", try text(v)]
        },
        arguments("HTTP_LOADER_CONNECT_TIMEOUT", ["--connect-timeout"]) { v throws(Failure) in
            ["--connect-timeout", String(try seconds(v))]
        },
        arguments("HTTP_LOADER_REQUEST_TIMEOUT", ["--download-timeout"]) { v throws(Failure) in
            ["--download-timeout", String(try seconds(v))]
        },
        arguments("HTTP_LOADER_MAX_REDIRECTS", ["--max-redirects"]) { v throws(Failure) in
            ["--max-redirects", String(try int(v, 0...50))]
        },
        // Not following redirects is at most 0 of them (after HTTP_LOADER_MAX_REDIRECTS, so it wins).
        Row(
            key: "HTTP_LOADER_FOLLOW_REDIRECTS",
            use: .arguments(flags: []) { v throws(Failure) in try bool(v) ? [] : ["--max-redirects", "0"] }),
        arguments("HTTP_LOADER_DEFAULT_USER_AGENT", ["--user-agent"]) { v throws(Failure) in
            ["--user-agent", try text(v)]
        },
    ]

    // MARK: row makers and value readers

    static func setting(
        _ key: String, _ apply: @escaping @Sendable (inout ThumborSettings, Value) throws(Failure) -> Void
    )
        -> Row
    {
        Row(key: key, use: .setting(apply))
    }

    static func arguments(
        _ key: String, _ flags: [String], _ convert: @escaping @Sendable (Value) throws(Failure) -> [String]
    )
        -> Row
    {
        Row(key: key, use: .arguments(flags: flags, convert))
    }

    static func bool(_ v: Value) throws(Failure) -> Bool {
        switch v {
        case .bool(let b): return b
        case .int(let n) where n == 0 || n == 1: return n == 1
        default: throw Failure(description: "True or False")
        }
    }

    static func int(_ v: Value, _ range: ClosedRange<Int>) throws(Failure) -> Int {
        guard case .int(let n) = v, range.contains(n) else {
            throw Failure(description: "a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return n
    }

    static func number(_ v: Value) throws(Failure) -> Double {
        switch v {
        case .int(let n): return Double(n)
        case .float(let x) where x.isFinite: return x
        default: throw Failure(description: "a number")
        }
    }

    /// A timeout in seconds as the server's whole-second flags take it: rounded up, at least 1.
    static func seconds(_ v: Value) throws(Failure) -> Int {
        let x = try number(v)
        guard x > 0, x <= 3600 else { throw Failure(description: "seconds above 0, at most 3600") }
        return Int(x.rounded(.up))
    }

    static func text(_ v: Value) throws(Failure) -> String {
        guard case .string(let s) = v else { throw Failure(description: "a string") }
        return s
    }

    static func texts(_ v: Value) throws(Failure) -> [String] {
        guard case .list(let items) = v else { throw Failure(description: "a list or tuple of strings") }
        var out: [String] = []
        for item in items { out.append(try text(item)) }
        return out
    }
}
