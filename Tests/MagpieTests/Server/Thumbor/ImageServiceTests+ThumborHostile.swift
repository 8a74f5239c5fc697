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
}
