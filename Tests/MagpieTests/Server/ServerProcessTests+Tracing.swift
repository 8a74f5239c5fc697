import Foundation
import MagpieTestSupport
import Testing

/// `--otel-endpoint` in a magpie-server built without the OTLP trait (the tests' build): refused at
/// start with a message naming the trait, as the variable is; a URL that is not http(s) is refused
/// first. (`Tests/otlp/test_otlp.py` runs a build with the trait.)
extension ServerProcessTests {
    @Test func anOTLPEndpointWithoutTheExporterStopsTheStart() throws {
        let dir = try TemporaryDirectory()
        for (arguments, environment, expected) in [
            (["--otel-endpoint", "http://127.0.0.1:4318"], [:], "built without the OTLP exporter"),
            ([], ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"], "built without the OTLP exporter"),
            (["--otel-endpoint", "ftp://127.0.0.1"], [:], "--otel-endpoint must be http(s)"),
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
