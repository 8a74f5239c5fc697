import Foundation
import Logging
import Testing

@testable import magpie_server

/// imgproxy's `IMGPROXY_LOG_FORMAT` (`--log-format`): each format's line, and a hostile value (a
/// newline, quotes, control bytes, as a request path can carry) neither ending a line nor forging a
/// field in any of them.
@Suite struct LogFormatTests {
    static let hostile = "/a\n2026-01-01T00:00:00+0000 error forged \"x\" \u{1B}[31m\\"

    static func line(_ name: String, message: String = "done", metadata: [(String, String)] = []) -> String {
        LogFormat.table[name]!.line("2026-11-29T06:00:00+0000", .info, "magpie", metadata, "server", message)
    }

    @Test func everyFormatWritesOneLine() throws {
        #expect(Set(LogFormat.table.keys) == ["pretty", "structured", "json", "gcp"])
        #expect(
            Self.line("pretty", metadata: [("id", "r1")])
                == "2026-11-29T06:00:00+0000 info magpie : id=r1 [server] done\n")
        #expect(
            Self.line("structured", message: "two words", metadata: [("id", "r1")])
                == "time=2026-11-29T06:00:00+0000 level=info msg=\"two words\" id=r1\n")
        let json = try #require(
            JSONSerialization.jsonObject(with: Data(Self.line("json", metadata: [("id", "r1")]).utf8))
                as? [String: String])
        #expect(json == ["time": "2026-11-29T06:00:00+0000", "level": "info", "msg": "done", "id": "r1"])
        let gcp = try #require(
            JSONSerialization.jsonObject(with: Data(Self.line("gcp").utf8)) as? [String: String])
        #expect(gcp["severity"] == "INFO" && gcp["message"] == "done")
        #expect(LogFormat.severity(.warning) == "WARNING" && LogFormat.severity(.error) == "ERROR")
    }

    @Test func aHostileValueStaysInsideItsField() throws {
        for name in LogFormat.table.keys {
            let line = Self.line(name, message: Self.hostile, metadata: [("path", Self.hostile)])
            #expect(line.filter { $0 == "\n" }.count == 1 && line.hasSuffix("\n"), "\(name): \(line)")
            #expect(!line.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(name): no raw control bytes")
        }
        for name in ["json", "gcp"] {
            let object = try #require(
                JSONSerialization.jsonObject(with: Data(Self.line(name, metadata: [("path", Self.hostile)]).utf8))
                    as? [String: String])
            #expect(object["path"] == Self.hostile, "\(name): the value comes back whole")
        }
        let structured = Self.line("structured", metadata: [("path", "a b=c")])
        #expect(structured.hasSuffix(#" path="a b=c""# + "\n"), "\(structured)")
    }
}
