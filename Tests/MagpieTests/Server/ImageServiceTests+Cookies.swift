import Foundation
import MagpieLoopback
import MagpieTestSupport
import Synchronization
import Testing

@testable import Magpie
@testable import MagpieServer

/// `IMGPROXY_COOKIE_PASSTHROUGH` through the service, against a loopback origin that answers by
/// cookie: each client's source is its own (fetched with its cookies, cached under them, never
/// answered to another client) and its answer is `private`; a source the cookies are not for is
/// the shared one, answered `public`.
extension ImageServiceTests {
    @Test func cookiesGoToTheirSourceAndItsAnswerIsTheClients() async throws {
        let seen = Mutex<[String]>([])
        let byCookie: LoopbackServer.Handler = { request in
            let cookie = request.header("Cookie") ?? ""
            seen.withLock { $0.append(request.path + " " + cookie) }
            switch (request.path, cookie) {
            case ("/private/a", "session=alice; theme=dark"): return .ok(NetFixture.jpeg, contentType: "image/jpeg")
            case ("/private/a", "session=bob"): return .ok(NetFixture.png, contentType: "image/png")
            case ("/public/a", ""): return .ok(NetFixture.png, contentType: "image/png")
            default: return .respond(status: 403)
            }
        }
        let h = try await Self.harness(byCookie) {
            $0.cookiePassthrough = CookiePassthrough(baseURL: URL(string: "http://127.0.0.2/private/"))
        }
        let target = h.target("w:20", "/private/a")
        let alice: [(name: String, value: String)] = [("Cookie", "session=alice; theme=dark")]
        let a = await h.get(target, headers: alice)
        #expect(a.status == 200 && a.header("Content-Type") == "image/jpeg")
        #expect(a.header("Cache-Control") == "private, max-age=\(ServiceConfiguration().ttl)")
        let b = await h.get(target, headers: [("Cookie", "session=bob")])
        #expect(b.status == 200 && b.header("Content-Type") == "image/png", "bob's own source, not alice's answer")
        #expect(b.header("Cache-Control")?.hasPrefix("private,") == true)
        let again = await h.get(target, headers: alice)
        #expect(again.body == a.body && again.header("X-Magpie-Cache") == "hit", "alice's variant, kept for her")
        let stranger = await h.get(target)
        #expect(stranger.status == 403, "without cookies nobody gets alice's or bob's image: \(stranger.status)")
        let mallory = await h.get(target, headers: [("Cookie", "session=mallory")])
        #expect(mallory.status == 403 && mallory.body != a.body)
        // Outside the base's path the cookies stay home, and the answer is the shared one.
        let shared = await h.get(h.target("w:20", "/public/a"), headers: alice)
        #expect(shared.status == 200 && shared.header("Cache-Control")?.hasPrefix("public,") == true)
        #expect(
            seen.withLock { $0 }
                == [
                    "/private/a session=alice; theme=dark", "/private/a session=bob", "/private/a ",
                    "/private/a session=mallory", "/public/a ",
                ])
        try await h.finish()
    }

    /// Without `--cookie-passthrough` a client's cookies reach no origin, and answers stay `public`.
    @Test func withoutPassthroughNoCookieLeaves() async throws {
        let seen = Mutex<[String]>([])
        let h = try await Self.harness({ request in
            seen.withLock { $0.append(request.header("Cookie") ?? "") }
            return .ok(NetFixture.jpeg, contentType: "image/jpeg")
        })
        let r = await h.get(h.target("w:20", "/a"), headers: [("Cookie", "session=alice")])
        #expect(r.status == 200 && r.header("Cache-Control")?.hasPrefix("public,") == true)
        #expect(seen.withLock { $0 } == [""])
        try await h.finish()
    }
}
