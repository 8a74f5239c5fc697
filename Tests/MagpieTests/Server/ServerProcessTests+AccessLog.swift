import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie

/// The access log on standard error: one line per request in swift-log's format, and none with
/// `--no-access-log` or with `IMGPROXY_LOG_LEVEL=error` (`--log-level`: the access log is `info`).
extension ServerProcessTests {
    @Test(arguments: ["on", "off", "error level"])
    func theAccessLogIsOneLinePerRequestUnlessTurnedOff(_ mode: String) async throws {
        let on = mode == "on"
        let dir = try TemporaryDirectory()
        let logPath = dir.path("stderr.log")
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        let child = try ChildProcess(
            Self.binary,
            ["--bind", "127.0.0.1:0", "--allow-unsigned", "--cache-dir", dir.path("cache")]
                + (mode == "off" ? ["--no-access-log"] : []), standardError: log,
            environment: mode == "error level" ? ["IMGPROXY_LOG_LEVEL": "error"] : [:])
        let line = try #require(child.readLine())
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0) }, "\(line)")
        for id in ["req-a", "req-b"] {
            let client = try RawSocket(port: port)
            client.send("GET /health HTTP/1.1\r\nHost: a\r\nX-Request-ID: \(id)\r\n\r\n")
            #expect(client.read(until: "ok\n") != nil)
        }
        kill(child.process.processIdentifier, SIGTERM)
        child.process.waitUntilExit()
        try log.close()
        let text = try String(contentsOfFile: logPath, encoding: .utf8)
        let access = text.split(separator: "\n").filter { $0.contains("magpie.access") }
        if on {
            #expect(access.count == 2, "\(text)")
            for (entry, id) in zip(access, ["req-a", "req-b"]) {
                #expect(entry.contains(" info magpie.access :") && entry.contains("id=\(id)"), "\(entry)")
                #expect(entry.contains("status=200") && entry.hasSuffix("[MagpieServer] request"), "\(entry)")
                #expect(entry.first?.isNumber == true && entry.contains("+0000 "), "a UTC timestamp first: \(entry)")
            }
        } else {
            #expect(access.isEmpty, "\(text)")
        }
    }
}
