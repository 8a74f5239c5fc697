import Foundation
import MagpieLoopback
import MagpieServer
import MagpieVapor
import Testing
import VaporTesting

/// Vapor's HTTP server closes no idle connection unless told to; mounting the service gives it an
/// idle timeout (a client that connects and sends nothing is let go), and leaves one the
/// application set, or none when asked.
extension MagpieVaporTests {
    @Test func mountingGivesTheServerAnIdleTimeoutUnlessItHasOne() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("magpie-vapor-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await withApp { app in
            try app.images.mount(try Self.service(cache: folder), at: "/img")
            #expect(app.http.server.configuration.idleTimeout == .seconds(30))
        }
        try await withApp { app in
            app.http.server.configuration.idleTimeout = .seconds(5)
            try app.images.mount(try Self.service(cache: folder + "-2"), at: "/img")
            #expect(app.http.server.configuration.idleTimeout == .seconds(5))
        }
        try await withApp { app in
            try app.images.mount(try Self.service(cache: folder + "-3"), at: "/img", idleTimeout: nil)
            #expect(app.http.server.configuration.idleTimeout == nil)
        }
        // Live: a connection that sends nothing is closed once the timeout passes.
        try await withApp { app in
            try app.images.mount(try Self.service(cache: folder + "-4"), at: "/img", idleTimeout: .milliseconds(300))
            try await app.server.start(address: .hostname("127.0.0.1", port: 0))
            if let port = app.http.server.shared.localAddress?.port {
                let silent = try RawSocket(port: port, receiveTimeout: 10)
                #expect(silent.read() == .closed, "a silent connection was open after 10 s")
            } else {
                Issue.record("the server has no local address")
            }
            await app.server.shutdown()
        }
    }
}
