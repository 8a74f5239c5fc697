import Logging

/// How a log line is written (imgproxy's `IMGPROXY_LOG_FORMAT`), one row per format: `pretty`
/// (swift-log's stream format, the default), `structured` (logfmt, `key=value`), `json` (one
/// object a line: `time`, `level`, `msg`, then the metadata) and `gcp` (Google Cloud Logging's
/// fields: `time`, `severity`, `message`). Every value a request can reach is escaped, so a hostile
/// path or header can neither end a line nor forge a field.
struct LogFormat: Sendable {
    /// The line after the timestamp `time` (UTC, ISO 8601), with its newline.
    let line:
        @Sendable (
            _ time: String, _ level: Logger.Level, _ label: String, _ metadata: [(String, String)],
            _ source: String, _ message: String
        ) -> String

    static let table: [String: LogFormat] = [
        "pretty": LogFormat { time, level, label, metadata, source, message in
            var line = "\(time) \(level) \(label) :"
            for (key, value) in metadata { line += " \(key)=\(escaped(value, quoted: false))" }
            return line + " [\(source)] \(escaped(message, quoted: false))\n"
        },
        "structured": LogFormat { time, level, _, metadata, _, message in
            var line = "time=\(time) level=\(level) msg=\(logfmt(message))"
            for (key, value) in metadata { line += " \(key)=\(logfmt(value))" }
            return line + "\n"
        },
        "json": LogFormat { time, level, _, metadata, _, message in
            json([("time", time), ("level", "\(level)"), ("msg", message)] + metadata)
        },
        "gcp": LogFormat { time, level, _, metadata, _, message in
            json([("time", time), ("severity", severity(level)), ("message", message)] + metadata)
        },
    ]

    static let names = table.keys.sorted().joined(separator: ", ")

    /// Cloud Logging's severity names.
    static func severity(_ level: Logger.Level) -> String {
        switch level {
        case .trace, .debug: return "DEBUG"
        case .info: return "INFO"
        case .notice: return "NOTICE"
        case .warning: return "WARNING"
        case .error: return "ERROR"
        case .critical: return "CRITICAL"
        }
    }

    /// `text` with control bytes, `"` and `\` escaped as JSON escapes them (quoted: within quotes).
    static func escaped(_ text: String, quoted: Bool) -> String {
        // Most values are plain printable ASCII: returned as they are, without a copy.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && (!quoted || ($0 != 0x22 && $0 != 0x5C)) }) { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"" where quoted: out += "\\\""
            case "\\" where quoted: out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value)
                    || scalar.value == 0x2028 || scalar.value == 0x2029
                {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// A logfmt value: bare when it is one plain word, else quoted and escaped.
    static func logfmt(_ value: String) -> String {
        let plain =
            !value.isEmpty
            && value.unicodeScalars.allSatisfy {
                $0.value > 0x20 && $0.value < 0x7F && $0 != "\"" && $0 != "=" && $0 != "\\"
            }
        return plain ? value : "\"" + escaped(value, quoted: true) + "\""
    }

    /// One JSON object of string fields, on one line.
    static func json(_ fields: [(String, String)]) -> String {
        "{"
            + fields.map { "\"\(escaped($0.0, quoted: true))\":\"\(escaped($0.1, quoted: true))\"" }
            .joined(separator: ",") + "}\n"
    }
}
