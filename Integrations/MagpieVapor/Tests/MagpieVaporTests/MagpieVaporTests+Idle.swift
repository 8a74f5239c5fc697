import Foundation
import MagpieServer
import MagpieVapor
import Testing
import VaporTesting

#if canImport(Glibc)
    import Glibc
#endif

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
                #expect(try Self.waitForClose(port: port, within: 10), "a silent connection was open after 10 s")
            } else {
                Issue.record("the server has no local address")
            }
            await app.server.shutdown()
        }
    }

    /// Connects to 127.0.0.1:`port`, sends nothing, and reads: `true` when the server closes the
    /// connection (end of stream) within `seconds`.
    static func waitForClose(port: Int, within seconds: Int) throws -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, 0) == 0
    }
}
