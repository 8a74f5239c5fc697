import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie
@testable import MagpieServer

/// `IMGPROXY_CACHE_CONTROL_PASSTHROUGH` through the service, with imgproxy's handler cases
/// (`TestHandlerCacheControl`: the origin's Cache-Control, an Expires turned into max-age, both
/// with Cache-Control first, `exp` over the origin, no headers, passthrough off). Where Magpie
/// answers otherwise: it writes its own field (`public, max-age=…`, not the origin's text), and
/// `max-age` is what is left of the lifetime when the answer is served from its cache later.
extension ImageServiceTests {
    static let dated: LoopbackServer.Handler = { request in
        // A Date (now, as an origin's is) and an Expires half an hour or an hour on: the lifetime
        // is theirs, whatever the clock that reads it (RFC 9111 §4.2.1).
        let now = Int(Date().timeIntervalSince1970)
        let date = HTTPDate.format(seconds: now)
        let fields: [(String, String)]
        switch request.path {
        case "/cc": fields = [("Cache-Control", "max-age=3600, public")]
        case "/expires": fields = [("Date", date), ("Expires", HTTPDate.format(seconds: now + 1800))]
        case "/both":
            fields = [
                ("Cache-Control", "max-age=1800, public"), ("Date", date),
                ("Expires", HTTPDate.format(seconds: now + 3600)),
            ]
        case "/long": fields = [("Cache-Control", "max-age=7200, public")]
        case "/nocache": fields = [("Cache-Control", "no-cache"), ("ETag", "\"v1\"")]
        case "/private": fields = [("Cache-Control", "private, max-age=600")]
        case "/nostore": fields = [("Cache-Control", "no-store, max-age=600")]
        case "/more":
            fields = [("Cache-Control", "max-age=600, must-revalidate, stale-while-revalidate=30, stale-if-error=60")]
        default: fields = []
        }
        return .respond(status: 200, headers: [("Content-Type", "image/jpeg")] + fields, body: NetFixture.jpeg)
    }

    @Test func theOriginsLifetimeIsPassedOnAsWhatIsLeftOfIt() async throws {
        let clock = ManualClock()
        let h = try await Self.harness(Self.dated, { $0.cacheControlPassthrough = true }, clock: clock)
        let ttl = ServiceConfiguration().ttl
        for (path, expected) in [
            ("/cc", "public, max-age=3600"),
            ("/none", "public, max-age=\(ttl)"), ("/nocache", "no-cache"),
            ("/more", "public, max-age=600, must-revalidate, stale-while-revalidate=30, stale-if-error=60"),
        ] {
            let r = await h.get(h.target("w:20", path))
            #expect(
                r.status == 200 && r.header("Cache-Control") == expected, "\(path): \(r.header("Cache-Control") ?? "")")
        }
        // The origin's Date is whole seconds, so its age when it arrives is 0 or 1 s (RFC 9111 §4.2.3).
        for path in ["/expires", "/both"] {
            let value = await h.get(h.target("w:20", path)).header("Cache-Control") ?? ""
            #expect(["public, max-age=1800", "public, max-age=1799"].contains(value), "\(path): \(value)")
        }
        // `exp` sooner than the origin's lifetime wins (imgproxy's ProcessingOptionsOverridesOrigin).
        let soon = Int(clock.now().timeIntervalSince1970) + 1800
        #expect(await h.get(h.target("w:20/exp:\(soon)", "/long")).header("Cache-Control") == "public, max-age=1800")
        // Ten minutes on, the same answer from the cache says ten minutes less.
        clock.advance(by: 600)
        let later = await h.get(h.target("w:20", "/cc"))
        #expect(later.header("X-Magpie-Cache") == "hit" && later.header("Cache-Control") == "public, max-age=3000")
        #expect(await h.get(h.target("w:24", "/cc")).header("Cache-Control") == "public, max-age=3000", "another size")
        try await h.finish()

        let off = try await Self.harness(Self.dated, clock: clock)
        #expect(await off.get(off.target("w:20", "/cc")).header("Cache-Control") == "public, max-age=\(ttl)")
        try await off.finish()
    }

    /// The origin's `private` and `no-store` are passed on, as imgproxy passes the field on: a CDN
    /// in front keeps neither. Without passthrough the answer is the server's, as imgproxy's.
    @Test func privateAndNoStoreArePassedOn() async throws {
        let counter = Recorder<String>()
        let origin: LoopbackServer.Handler = { request in
            counter.add(request.path)
            return await Self.dated(request)
        }
        let clock = ManualClock()
        let h = try await Self.harness(origin, { $0.cacheControlPassthrough = true }, clock: clock)
        let first = await h.get(h.target("w:20", "/private"))
        #expect(first.status == 200 && first.header("Cache-Control") == "private, max-age=600")
        let stored = await h.get(h.target("w:20", "/nostore"))
        #expect(stored.status == 200 && stored.header("Cache-Control") == "no-store")
        // Not kept: asked of the origin again, and answered the same.
        let again = await h.get(h.target("w:20", "/nostore"))
        #expect(again.header("Cache-Control") == "no-store" && again.header("X-Magpie-Cache") != "hit")
        #expect(counter.all.filter { $0 == "/nostore" }.count == 2)
        // `exp` puts the server's lifetime first, as imgproxy does.
        let soon = Int(clock.now().timeIntervalSince1970) + 1800
        let expiring = await h.get(h.target("w:20/exp:\(soon)", "/nostore"))
        #expect(expiring.header("Cache-Control")?.hasPrefix("public, max-age=") == true)
        try await h.finish()

        let off = try await Self.harness(origin, clock: clock)
        let ttl = ServiceConfiguration().ttl
        for path in ["/private", "/nostore"] {
            #expect(await off.get(off.target("w:20", path)).header("Cache-Control") == "public, max-age=\(ttl)")
        }
        try await off.finish()
    }
}
