import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie
@testable import MagpieServer

/// thumbor's URLs meet the same address policy and conditional rules as imgproxy's: a thumbor URL
/// naming the server's own network or the cloud metadata address, directly or by a redirect,
/// fetches nothing; `ENABLE_ETAGS = False` sends no tag and reads no `If-None-Match`.
extension ImageServiceTests {
    @Test func thumborsSourcesMeetTheAddressPolicy() async throws {
        // A server on 127.0.0.1 (the policy allows only 127.0.0.2) counts what would reach it.
        let inner = try await LoopbackServer(host: "127.0.0.1") { _ in .ok(NetFixture.jpeg, contentType: "image/jpeg") }
        let innerHost = "127.0.0.1:\(inner.port)"
        let h = try await Self.harness({ request in
            switch request.path {
            case "/inward": return .respond(status: 302, headers: [("Location", "http://\(innerHost)/a.jpg")])
            case "/metadata": return .respond(status: 302, headers: [("Location", "http://169.254.169.254/latest")])
            default: return await Self.images(request)
            }
        }) { $0.thumbor = Self.servedSettings }
        let host = "127.0.0.2:\(h.origin.port)"
        #expect(await h.get(Self.thumborTarget("/unsafe/48x32/HOST/a.jpg", host: host)).status == 200)
        for source in [innerHost, "http://\(innerHost)", "169.254.169.254", "[::1]:\(inner.port)", "localhost"] {
            for path in ["/unsafe/48x32/\(source)/a.jpg", "signed:/48x32/\(source)/a.jpg"] {
                let r = await h.get(Self.thumborTarget(path, host: host))
                #expect(r.status == 400, "\(path): \(r.status), refused as a source thumbor does not load")
            }
        }
        for hop in ["inward", "metadata"] {
            let r = await h.get(Self.thumborTarget("/unsafe/48x32/HOST/\(hop)", host: host))
            #expect(r.status != 200 && r.header("Content-Type")?.hasPrefix("image/") != true, "\(hop): \(r.status)")
        }
        #expect(inner.requestCount("/a.jpg") == 0, "nothing reached the server's own network")
        try await h.finish()
        try await inner.shutdown()
    }

    @Test func thumborsEntityTagsFollowEnableEtags() async throws {
        for etags in [true, false] {
            let h = try await Self.harness(Self.images) {
                var t = Self.servedSettings
                t.etags = etags
                $0.thumbor = t
            }
            let target = Self.thumborTarget("/unsafe/48x32/HOST/a.jpg", host: "127.0.0.2:\(h.origin.port)")
            let first = await h.get(target)
            #expect(first.status == 200 && (first.header("ETag") != nil) == etags, "ETag sent: \(etags)")
            let any = await h.get(target, headers: [("If-None-Match", "*")])
            #expect(any.status == (etags ? 304 : 200), "If-None-Match: * with ENABLE_ETAGS = \(etags)")
            if let tag = first.header("ETag") {
                #expect(await h.get(target, headers: [("If-None-Match", "\"other\", \(tag)")]).status == 304)
                #expect(await h.get(target, headers: [("If-None-Match", "\"other\"")]).status == 200)
            } else {
                #expect(any.body == first.body && any.header("ETag") == nil)
            }
            try await h.finish()
        }
    }

    /// meta's JSONP: a callback from the URL is written into a script, so only a name a page can
    /// call is taken (thumbor writes any text); META_CALLBACK_NAME wins over the URL's.
    @Test func thumborsMetaCallbacksAreNamesNeverScript() async throws {
        for configured in [nil, "site.cb"] {
            let h = try await Self.harness(Self.images) {
                var t = Self.servedSettings
                t.metaCallback = configured
                $0.thumbor = t
            }
            let meta = Self.thumborTarget("/unsafe/meta/48x32/HOST/a.jpg", host: "127.0.0.2:\(h.origin.port)")
            for hostile in ["alert(1)//", "a;b", "1a", "a..b", "<script>", String(repeating: "a", count: 129)] {
                let escaped = hostile.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                let r = await h.get(meta + "?callback=" + escaped)
                if configured == nil {
                    #expect(r.status == 400, "callback \(hostile.prefix(20)): \(r.status)")
                } else {
                    #expect(String(decoding: r.body, as: UTF8.self).hasPrefix("site.cb({"), "the configured name wins")
                }
            }
            let named = await h.get(meta + "?callback=my_app.%24cb2")
            #expect(named.status == 200 && named.header("Content-Type") == "text/javascript")
            let body = String(decoding: named.body, as: UTF8.self)
            #expect(body.hasPrefix((configured ?? "my_app.$cb2") + "({\"thumbor\": ") && body.hasSuffix("});"))
            // A blank callback is none (tornado keeps no blank argument): JSON.
            #expect(await h.get(meta + "?callback=").header("Content-Type") == Self.json(configured))
            let json = await h.get(meta)
            #expect(json.header("Content-Type") == Self.json(configured))
            try await h.finish()
        }
        #expect(ThumborSettings.isCallbackName("a.b_c.$d9") && !ThumborSettings.isCallbackName("a.9b"))
    }

    static func json(_ configured: String?) -> String { configured == nil ? "application/json" : "text/javascript" }
}
