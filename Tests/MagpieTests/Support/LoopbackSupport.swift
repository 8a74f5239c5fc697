import Foundation
import MagpieLoopback
import Synchronization
import Testing

@testable import Magpie

/// Holds tasks until opened: the deterministic way to keep a response in flight.
final class Gate: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let proceed = state.withLock { s -> Bool in
                if s.open { return true }
                s.waiters.append(continuation)
                return false
            }
            if proceed { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.open = true
            defer { s.waiters.removeAll() }
            return s.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// Thread-safe list of things seen.
final class Recorder<T: Sendable>: Sendable {
    private let items = Mutex<[T]>([])
    func add(_ item: T) { items.withLock { $0.append(item) } }
    var all: [T] { items.withLock { $0 } }
}

/// Suspends until `condition` holds, checking it every millisecond; fails the test after 20 s of
/// wall time so a bug shows as a failure, not a hang. (It polls a condition: it never sleeps in
/// place of one. It used to re-check after a bare `Task.yield()`: with many tests polling at once
/// on a loaded two-core machine, the spinning kept the cooperative pool busy enough that
/// downloads under test hit their 15 s timeout.)
func eventually(
    _ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ condition: () -> Bool
) async {
    let deadline = ContinuousClock.now + .seconds(20)
    while !condition() {
        if ContinuousClock.now > deadline {
            Issue.record("timed out waiting for: \(what)", sourceLocation: sourceLocation)
            return
        }
        try? await Task.sleep(for: .milliseconds(1))
    }
}

enum NetFixture {
    static let jpeg: [UInt8] = try! Image(width: 96, height: 64, rgba: Fixture.gradient(width: 96, height: 64))
        .encoded(as: .jpeg(quality: 90))
    static let png: [UInt8] = try! Image(
        width: 40, height: 30, rgba: Fixture.gradient(width: 40, height: 30) { x, _ in x < 5 ? 0 : 255 }
    ).encoded(as: .png())

    static func url(_ server: LoopbackServer, _ path: String) -> URL { URL(string: server.baseURL + path)! }
}

/// Runs `body` with a loopback server and a downloader, shutting both down afterwards.
func withServer<T>(
    _ handler: @escaping LoopbackServer.Handler,
    _ body: (LoopbackServer) async throws -> T
) async throws -> T {
    let server = try await LoopbackServer(handler: handler)
    do {
        let result = try await body(server)
        try await server.shutdown()
        return result
    } catch {
        try? await server.shutdown()
        throw error
    }
}

/// A server that answers every request with `NetFixture.jpeg` once `gate` opens.
func gatedJPEG(_ gate: Gate) -> LoopbackServer.Handler {
    { _ in
        await gate.wait()
        return .ok(NetFixture.jpeg, contentType: "image/jpeg")
    }
}
