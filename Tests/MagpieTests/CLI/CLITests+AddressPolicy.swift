import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie

extension CLINetworkTests {
    /// `fetch --deny-private` refuses the server's own network (loopback here), in every form and
    /// at every redirect, before connecting; `--allow-network` lets one block through. `prefetch`
    /// takes the same flags.
    @Test func denyPrivateRefusesLoopbackUnlessAllowed() async throws {
        try await withServer({ request in
            switch request.path {
            case "/hop":
                return .respond(status: 302, headers: [("Location", "http://169.254.169.254/latest/meta-data/")])
            default: return .ok(NetFixture.png, contentType: "image/png")
            }
        }) { server in
            let dir = try TemporaryDirectory()
            let urls = [server.baseURL + "/a.png", "http://127.1:\(server.port)/b.png"]
            let base = ["fetch"] + urls + ["--cache-dir", dir.path("cache"), "--retries", "3"]
            let denied = try await CLI.runAsync(base + ["--deny-private"])
            #expect(denied.status == 1, "\(denied.stderr)")
            #expect((denied.stdout + denied.stderr).contains("a loopback address is not allowed"), "\(denied.stdout)")
            #expect(server.connectionsAccepted == 0, "refused before connecting, and not retried")
            let allowed = try await CLI.runAsync(base + ["--deny-private", "--allow-network", "127.0.0.0/8"])
            #expect(allowed.status == 0, "\(allowed.stdout)\(allowed.stderr)")
            #expect(server.requestCount("/a.png") == 1 && server.requestCount("/b.png") == 1)
            // A redirect to the metadata address is judged by the same policy.
            let hop = try await CLI.runAsync(
                [
                    "fetch", server.baseURL + "/hop", "--cache-dir", dir.path("cache"), "--retries", "0",
                    "--deny-private", "--allow-network", "127.0.0.1/32",
                ])
            #expect(hop.status == 1 && (hop.stdout + hop.stderr).contains("a link-local address"), "\(hop.stdout)")
            try "\(server.baseURL)/c.png\n".write(toFile: dir.path("urls.txt"), atomically: true, encoding: .utf8)
            let prefetch = try await CLI.runAsync(
                ["prefetch", "-i", dir.path("urls.txt"), "--cache-dir", dir.path("cache"), "--deny-private"])
            #expect(prefetch.status != 0 && server.requestCount("/c.png") == 0, "\(prefetch.stdout)")
            let bad = try await CLI.runAsync(base + ["--allow-network", "10.0.0.1/8"])
            #expect(bad.status != 0 && bad.stderr.contains("CIDR"), "\(bad.stderr)")
        }
    }
}
