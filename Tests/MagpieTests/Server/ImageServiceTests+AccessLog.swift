import Foundation
import Logging
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie
@testable import MagpieServer

/// Keeps what is logged through it.
struct RecordingLogHandler: LogHandler {
    let records: Locked<[(message: String, metadata: Logger.Metadata)]>
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        records.withLock { $0.append((event.message.description, event.metadata ?? [:])) }
    }
}

extension ImageServiceTests {
    @Test func eachRequestIsLoggedOnceWithoutItsPathOrSource() async throws {
        let h = try await Self.harness(Self.images)
        let records = Locked<[(message: String, metadata: Logger.Metadata)]>([])
        let logged = ImageService(
            manager: h.service.manager, configuration: h.service.configuration,
            accessLog: Logger(label: "test.access") { _ in RecordingLogHandler(records: records) })
        _ = await logged.respond(
            to: ServiceRequest(method: "GET", target: h.target("w:10", "/a.jpg"), headers: [("X-Request-ID", "one")]))
        _ = await logged.respond(to: ServiceRequest(method: "GET", target: h.target("w:10", "/missing")))
        let lines = records.withLock { $0 }
        #expect(lines.count == 2)
        #expect(lines.first?.metadata["id"] == "one" && lines.first?.metadata["status"] == "200")
        #expect(lines.first?.metadata["cache"] == "miss" && lines.last?.metadata["status"] == "404")
        let text = lines.map { "\($0.message) \($0.metadata)" }.joined()
        #expect(!text.contains("127.0.0.2") && !text.contains("a.jpg") && !text.contains("w:10"))
        try await h.finish()
    }
}
