import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie

extension ServerProcessTests {
    /// Two `magpie-server` processes on one cache folder: while the first downloads a source,
    /// the second, asked for another size of it, waits for the first's download lease and reads
    /// the source it stored: the origin sees one request.
    @Test func twoServersOnOneFolderDownloadASourceOnce() async throws {
        let gate = Gate()
        let origin = try await LoopbackServer(host: "127.0.0.2") { _ in
            await gate.wait()
            return .ok(NetFixture.jpeg, contentType: "image/jpeg")
        }
        let dir = try TemporaryDirectory()
        let arguments = [
            "--allow-unsigned", "--cache-dir", dir.path("cache"), "--allow-network", "127.0.0.2/32", "--metrics",
        ]
        let (first, firstPort) = try Self.start(arguments)
        let (second, secondPort) = try Self.start(arguments)
        let loader = HTTPDataLoader(addressPolicy: .allowAll)
        func get(_ port: Int, _ target: String) async throws -> DataResponse {
            try await loader.load(
                DataRequest(url: URL(string: "http://127.0.0.1:\(port)" + target)!, acceptableStatusCodes: 0..<600),
                progress: { _, _ in })
        }
        let source = "/plain/http://127.0.0.2:\(origin.port)/a.jpg"
        let a = Task { try await get(firstPort, "/unsafe/w:20" + source) }
        await eventually("the first server downloading") { origin.totalRequests == 1 }
        let b = Task { try await get(secondPort, "/unsafe/w:30" + source) }
        // The second server has the request in flight (waiting on the lease) before the origin answers.
        var inFlight = false
        let deadline = ContinuousClock.now + .seconds(20)
        while !inFlight && ContinuousClock.now < deadline {
            let metrics = String(decoding: try await get(secondPort, "/metrics").body, as: UTF8.self)
            inFlight = metrics.contains("magpie_requests_in_flight 1")
        }
        #expect(inFlight, "the second server took the request")
        gate.open()
        let (ra, rb) = (try await a.value, try await b.value)
        #expect(ra.statusCode == 200 && rb.statusCode == 200)
        #expect(try Image(decoding: rb.body).width == 30)
        #expect(origin.totalRequests == 1, "the second server read the first's download")
        try await loader.shutdown()
        for server in [first, second] {
            kill(server.process.processIdentifier, SIGTERM)
            server.process.waitUntilExit()
        }
        try await origin.shutdown()
    }
}
