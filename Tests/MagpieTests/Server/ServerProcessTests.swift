import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie

/// `magpie-server` as a process: Hummingbird in front of the service, over loopback.
@Suite struct ServerProcessTests {
    static var binary: URL { CLI.binary.deletingLastPathComponent().appendingPathComponent("magpie-server") }

    /// Starts the server and returns it with its port, read from its first line of output.
    static func start(_ arguments: [String]) throws -> (ChildProcess, Int) {
        let child = try ChildProcess(binary, ["--bind", "127.0.0.1:0"] + arguments)
        let line = try #require(child.readLine(), "the server printed nothing")
        #expect(line.hasPrefix("magpie-server listening on"), "\(line)")
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0) }, "\(line)")
        return (child, port)
    }

    /// An origin on 127.0.0.2 whose JPEG answers wait until the gate opens.
    static func gatedOrigin() async throws -> (Gate, LoopbackServer) {
        let gate = Gate()
        let origin = try await LoopbackServer(host: "127.0.0.2") { _ in
            await gate.wait()
            return .ok(NetFixture.jpeg, contentType: "image/jpeg")
        }
        return (gate, origin)
    }

    @Test func servesThumbnailsSurvivesGarbageAndStopsOnSIGTERM() async throws {
        let origin = try await LoopbackServer(host: "127.0.0.2") { _ in .ok(NetFixture.jpeg, contentType: "image/jpeg")
        }
        let dir = try TemporaryDirectory()
        let (server, port) = try Self.start([
            "--allow-unsigned", "--cache-dir", dir.path("cache"), "--allow-network", "127.0.0.2/32", "--metrics",
        ])
        let loader = HTTPDataLoader(addressPolicy: .allowAll)
        func get(_ target: String) async throws -> DataResponse {
            try await loader.load(
                DataRequest(url: URL(string: "http://127.0.0.1:\(port)" + target)!, acceptableStatusCodes: 0..<600),
                progress: { _, _ in })
        }
        let image = "/unsafe/rs:fit:32:32/plain/http://127.0.0.2:\(origin.port)/a.jpg"
        let first = try await get(image)
        #expect(first.statusCode == 200 && first.headers.value(for: "Content-Type") == "image/jpeg")
        let decoded = try Image(decoding: first.body)
        #expect(decoded.width == 32 && decoded.height == 21)
        #expect(try await get(image).headers.value(for: "X-Magpie-Cache") == "hit")
        for garbage in [
            "/", "//", "/unsafe", "/unsafe/plain/", "/unsafe/rs:fit:-1:1/plain/http://x/a.jpg", "/%00/%ff",
            "/unsafe/w:10/" + String(repeating: "A", count: 4000), "/unsafe/plain/http://[::1]:1/a.jpg",
        ] {
            let r = try await get(garbage)
            #expect((400..<500).contains(r.statusCode), "\(garbage): \(r.statusCode)")
        }
        let health = try await get("/health")
        #expect(health.statusCode == 200 && health.body == Array("ok\n".utf8))
        #expect(origin.requestCount("/a.jpg") == 1)
        let metrics = String(decoding: try await get("/metrics").body, as: UTF8.self)
        #expect(metrics.contains(#"magpie_requests_total{route="image",code="200"} 2"#), "\(metrics)")
        #expect(
            metrics.contains("magpie_origin_bytes \(NetFixture.jpeg.count).0")
                && metrics.contains("magpie_origin_resumed_bytes 0.0")
                && metrics.contains("magpie_process_resident_bytes"), "\(metrics)")
        try await loader.shutdown()
        kill(server.process.processIdentifier, SIGTERM)
        server.process.waitUntilExit()
        #expect(server.process.terminationStatus == 0)
        try await origin.shutdown()
    }

    /// SIGTERM: `/health` turns 503 `draining` while the listener stays open for the shutdown
    /// delay, a request in flight is finished, and the process exits 0.
    @Test func sigtermDrainsThenFinishesInFlightRequests() async throws {
        let (gate, origin) = try await Self.gatedOrigin()
        let dir = try TemporaryDirectory()
        let (server, port) = try Self.start([
            "--allow-unsigned", "--cache-dir", dir.path("cache"), "--allow-network", "127.0.0.2/32",
            "--shutdown-delay", "2", "--graceful-timeout", "30",
        ])
        let loader = HTTPDataLoader(addressPolicy: .allowAll)
        func get(_ target: String) async throws -> DataResponse {
            try await loader.load(
                DataRequest(url: URL(string: "http://127.0.0.1:\(port)" + target)!, acceptableStatusCodes: 0..<600),
                progress: { _, _ in })
        }
        let inFlight = Task { try await get("/unsafe/w:16/plain/http://127.0.0.2:\(origin.port)/a.jpg") }
        while origin.totalRequests == 0 { await Task.yield() }
        kill(server.process.processIdentifier, SIGTERM)
        var health = try await get("/health")
        for _ in 0..<10_000 where health.statusCode == 200 { health = try await get("/health") }
        #expect(health.statusCode == 503 && health.body == Array("draining\n".utf8))
        gate.open()
        #expect(try await inFlight.value.statusCode == 200)
        try await loader.shutdown()
        server.process.waitUntilExit()
        #expect(server.process.terminationStatus == 0)
        try await origin.shutdown()
    }

    /// A client that connects and sends nothing is closed after `--idle-timeout` (the read below
    /// returns end of file; its own 20 s receive timeout only bounds a server that never closes).
    @Test func idleConnectionsAreClosed() async throws {
        let dir = try TemporaryDirectory()
        let (server, port) = try Self.start([
            "--allow-unsigned", "--cache-dir", dir.path("cache"), "--idle-timeout", "1",
        ])
        let client = try RawSocket(port: port, receiveTimeout: 20)
        let started = ContinuousClock.now
        let read = client.read()
        let took = ContinuousClock.now - started
        #expect(read == .closed, "closed by the server (not the 20 s receive timeout: \(took))")
        kill(server.process.processIdentifier, SIGTERM)
        server.process.waitUntilExit()
    }

    /// `--metrics-bind`: metrics on a listener of their own, and not beside the images.
    @Test func metricsCanHaveTheirOwnListener() async throws {
        let dir = try TemporaryDirectory()
        let child = try ChildProcess(
            Self.binary,
            [
                "--bind", "127.0.0.1:0", "--allow-unsigned", "--cache-dir", dir.path("cache"), "--metrics-bind",
                "127.0.0.1:0",
            ])
        var ports: [String: Int] = [:]
        while ports.count < 2, let line = child.readLine() {
            let port = line.split(separator: ":").last.flatMap { Int($0) }
            if line.hasPrefix("magpie-server listening on") { ports["main"] = port }
            if line.hasPrefix("magpie-server metrics on") { ports["metrics"] = port }
        }
        let main = try #require(ports["main"])
        let metricsPort = try #require(ports["metrics"])
        let loader = HTTPDataLoader(addressPolicy: .allowAll)
        func get(_ port: Int, _ path: String) async throws -> DataResponse {
            try await loader.load(
                DataRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!, acceptableStatusCodes: 0..<600),
                progress: { _, _ in })
        }
        #expect(try await get(main, "/health").statusCode == 200)
        let metrics = try await get(metricsPort, "/metrics")
        #expect(metrics.statusCode == 200)
        #expect(
            String(decoding: metrics.body, as: UTF8.self).contains(
                #"magpie_requests_total{route="health",code="200"} 1"#))
        #expect(try await get(main, "/metrics").statusCode == 400, "not served beside the images")
        #expect(try await get(metricsPort, "/health").statusCode == 404)
        try await loader.shutdown()
        kill(child.process.processIdentifier, SIGTERM)
        child.process.waitUntilExit()
        #expect(child.process.terminationStatus == 0)
    }

    @Test func refusesToStartWithoutAKey() throws {
        let dir = try TemporaryDirectory()
        let run = try CLI.run(arguments: ["--cache-dir", dir.path("c")], executable: Self.binary)
        #expect(run.status != 0 && run.stderr.contains("no signing key"), "\(run.stderr)")
        // `magpie serve` runs the same server with the same arguments.
        let forwarded = try CLI.run(["serve", "--cache-dir", dir.path("c")])
        #expect(forwarded.status == run.status && forwarded.stderr.contains("no signing key"), "\(forwarded.stderr)")
        // `magpie serve --help` is the server's help, with every flag (not `[<arguments> ...]`).
        for flag in ["--help", "-h"] {
            let help = try CLI.run(["serve", flag])
            #expect(help.status == 0, "\(help.stderr)")
            for option in ["--cache-dir", "--read-request-timeout", "--max-connections", "--allow-unsigned"] {
                #expect(help.stdout.contains(option), "\(flag): \(option) missing from \(help.stdout)")
            }
        }
    }
}
