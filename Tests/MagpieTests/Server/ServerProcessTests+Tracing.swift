import Foundation
import MagpieTestSupport
import Testing

/// Tracing settings that cannot be used stop magpie-server at start, with a message naming them:
/// swift-otel asked of a build without the OTLP trait (the tests' build), a collector URL that
/// is not http(s), an OpenTelemetry variable with a value it does not define.
/// (`Tests/otlp/test_otlp.py` runs the exporter against a collector.)
extension ServerProcessTests {
    @Test func unusableTracingSettingsStopTheStart() throws {
        let dir = try TemporaryDirectory()
        for (arguments, environment, expected) in [
            (
                ["--otel-endpoint", "http://127.0.0.1:4318", "--otel-sdk", "swift-otel"], [:],
                "built without swift-otel"
            ),
            (
                [], ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_TRACES_SAMPLER": "sometimes"],
                "OTEL_TRACES_SAMPLER: sometimes"
            ),
            (["--otel-endpoint", "ftp://127.0.0.1"], [:], "must be http(s)"),
        ] as [([String], [String: String], String)] {
            let errors = Pipe()
            let child = try ChildProcess(
                Self.binary,
                ["--allow-unsigned", "--bind", "127.0.0.1:0", "--cache-dir", dir.path("cache")] + arguments,
                standardError: errors.fileHandleForWriting, environment: environment)
            // It may print its listening line before the check: what matters is that it stops.
            _ = child.readLine()
            child.process.waitUntilExit()
            try errors.fileHandleForWriting.close()
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(child.process.terminationStatus != 0 && text.contains(expected), "\(arguments): \(text)")
        }
    }
}
