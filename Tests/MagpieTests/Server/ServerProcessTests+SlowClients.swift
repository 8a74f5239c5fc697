import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie

/// Clients that hold connections without asking for anything: silent ones, and ones that trickle
/// a request head a byte at a time.
extension ServerProcessTests {
    /// Trickles one more header byte to each socket every `interval` until stopped.
    final class Trickle: @unchecked Sendable {
        private let stopped = Locked(false)
        private let thread: Thread

        init(_ sockets: [RawSocket], interval: TimeInterval = 0.1) {
            let stopped = self.stopped
            thread = Thread {
                while !stopped.withLock({ $0 }) {
                    for s in sockets { s.send("a") }
                    Thread.sleep(forTimeInterval: interval)  // the attacker's pace, not a wait for a result
                }
            }
            thread.start()
        }

        func stop() { stopped.withLock { $0 = true } }
    }

    /// Past `--max-connections` of silent and trickling connections, a normal client is answered
    /// within 1 s: the connections that waited longest for a request head are closed to admit
    /// new ones, while one with a request in progress is kept and answered.
    @Test func aNormalClientIsAnsweredPastTheCapOfSilentAndTricklingConnections() async throws {
        let (gate, origin) = try await Self.gatedOrigin()
        let dir = try TemporaryDirectory()
        let (server, port) = try Self.start([
            "--allow-unsigned", "--cache-dir", dir.path("cache"), "--allow-network", "127.0.0.2/32",
            "--max-connections", "40", "--read-request-timeout", "60", "--idle-timeout", "120",
        ])
        defer { server.killHard() }
        // A request in progress: its head is in, its answer waits on the origin.
        let busy = try RawSocket(port: port)
        busy.send("GET /unsafe/w:16/plain/http://127.0.0.2:\(origin.port)/a.jpg HTTP/1.1\r\nHost: a\r\n\r\n")
        while origin.totalRequests == 0 { await Task.yield() }

        let silent = try (0..<60).map { _ in try RawSocket(port: port) }
        let trickling = try (0..<60).map { _ in try RawSocket(port: port) }
        for s in trickling { s.send("GET /health HTTP/1.1\r\nHost: a\r\nX-Slow: ") }
        let trickle = Trickle(trickling)
        defer { trickle.stop() }
        // The oldest silent connection is closed once the server is at its cap and more wait.
        #expect(silent[0].read() == .closed)

        let started = ContinuousClock.now
        let client = try RawSocket(port: port, receiveTimeout: 5)
        client.send("GET /health HTTP/1.1\r\nHost: a\r\n\r\n")
        let answer = client.read(until: "ok\n")
        let took = ContinuousClock.now - started
        #expect(answer?.hasPrefix("HTTP/1.1 200") == true, "\(answer ?? "no answer")")
        #expect(took < .seconds(1), "answered after \(took)")

        gate.open()
        let image = busy.read(until: "\r\n\r\n")
        #expect(image?.hasPrefix("HTTP/1.1 200") == true, "the busy connection was kept: \(image ?? "closed")")
        try await origin.shutdown()
    }

    /// `--read-request-timeout`: a head trickled a byte every 100 ms is cut off at the deadline
    /// (not at `--idle-timeout`), and so is a kept-alive connection that asks nothing after its
    /// response; one that keeps asking is not.
    @Test func aRequestHeadMustArriveInTime() async throws {
        let dir = try TemporaryDirectory()
        let (server, port) = try Self.start([
            "--allow-unsigned", "--cache-dir", dir.path("cache"), "--read-request-timeout", "2", "--idle-timeout",
            "120",
        ])
        defer { server.killHard() }
        let trickler = try RawSocket(port: port)
        trickler.send("GET /health HTTP/1.1\r\nHost: a\r\nX-Slow: ")
        let trickle = Trickle([trickler])
        defer { trickle.stop() }
        let keptAlive = try RawSocket(port: port)
        keptAlive.send("GET /health HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(keptAlive.read(until: "ok\n") != nil)
        let asking = try RawSocket(port: port)

        let started = ContinuousClock.now
        // A connection that asks again within the deadline each time stays open across it.
        for _ in 0..<5 {
            asking.send("GET /health HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(asking.read(until: "ok\n") != nil)
            try await Task.sleep(for: .milliseconds(500))  // the client's think time, under the 2-s deadline
        }
        #expect(trickler.read() == .closed)
        #expect(keptAlive.read() == .closed)
        let took = ContinuousClock.now - started
        #expect(took < .seconds(10), "closed by the deadline, not the idle timeout: \(took)")
        asking.send("GET /health HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(asking.read(until: "ok\n") != nil, "still open after \(took)")
    }
}

/// `--write-response-timeout` (imgproxy's `IMGPROXY_WRITE_RESPONSE_TIMEOUT`): a client that stops
/// reading a large answer has its connection closed at the deadline; one that reads gets it whole.
extension ServerProcessTests {
    @Test func aResponseMustBeWrittenInTime() async throws {
        let dir = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.path("root"), withIntermediateDirectories: true)
        // 24 MiB that sniff as PNG (answered as they are: `raw`): more than the socket buffers on
        // both sides hold.
        let big: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0x55, count: 24 << 20)
        try Data(big).write(to: URL(fileURLWithPath: dir.path("root/big.png")))
        let (server, port) = try Self.start([
            "--allow-unsigned", "--cache-dir", dir.path("cache"), "--local-root", dir.path("root"),
            "--write-response-timeout", "2", "--max-src-bytes", String(32 << 20),
        ])
        defer { server.killHard() }
        let request = "GET /unsafe/raw:1/plain/local:///big.png HTTP/1.1\r\nHost: a\r\n\r\n"
        let reader = try RawSocket(port: port)
        reader.send(request)
        var got = 0
        while case .bytes(let b) = reader.read(limit: 1 << 20) {
            got += b.count
            if got >= big.count { break }
        }
        #expect(got > big.count, "a reading client gets the answer whole: \(got)")
        let stalled = try RawSocket(port: port)
        stalled.send(request)
        let started = ContinuousClock.now
        // The behaviour under test is a client that reads nothing for longer than the deadline.
        try await Task.sleep(for: .seconds(4))
        var seen = 0
        var end = RawSocket.ReadResult.timedOut
        while true {
            let r = stalled.read(limit: 1 << 20)
            guard case .bytes(let b) = r else {
                end = r
                break
            }
            seen += b.count
        }
        #expect(end == .closed && seen < big.count, "cut off after \(seen) bytes (\(ContinuousClock.now - started))")
    }
}
