import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie
@testable import MagpieServer

/// imgproxy's path variables through the service (``PathRules``): the prefix
/// and health path, another arguments separator with a base URL, presets-only paths with the
/// `default` preset, allowed options, and replacements that cannot make a source the policy refuses.
extension ImageServiceTests {
    /// `/{signature}{signed}`.
    static func signed(_ signed: String) -> String { "/" + URLSignature.sign(signed, with: key) + signed }

    @Test func thePrefixAndTheHealthPath() async throws {
        let h = try await Self.harness(Self.images) {
            $0.paths.prefix = "/images"
            $0.paths.healthCheckPath = "/healthz"
        }
        let target = h.target("rs:fit:48:48", "/a.jpg")
        let ok = await h.get("/images" + target)
        #expect(ok.status == 200)
        #expect(try Image(decoding: ok.body).width == 48)
        #expect(await h.get(target).status == 404, "outside the prefix")
        #expect(await h.get("/imagesX" + target).status == 404)
        for path in ["/images/health", "/images/healthz"] {
            let r = await h.get(path)
            #expect(r.status == 200 && r.body == Array("ok\n".utf8), "\(path)")
        }
        #expect(await h.get("/health").status == 404)
        #expect(await h.get("/healthz").status == 404)
        try await h.finish()
    }

    @Test func anArgumentsSeparatorAndABaseURL() async throws {
        let h = try await Self.harness(Self.images) {
            $0.paths.argumentsSeparator = ","
            $0.paths.baseURL = "http://127.0.0.2:"
        }
        let r = await h.get(Self.signed("/rs,fit,48,48/f,png/plain/\(h.origin.port)/a.jpg"))
        #expect(r.status == 200 && r.header("Content-Type") == "image/png", "\(r.status)")
        #expect(try Image(decoding: r.body).width == 48)
        #expect(await h.get(Self.signed("/rs:fit:48:48/plain/\(h.origin.port)/a.jpg")).status != 200)
        try await h.finish()
    }

    @Test func presetsOnlyWithADefaultPresetAndAllowedOptions() async throws {
        let h = try await Self.harness(Self.images) {
            $0.presets = ["default": ["rs:fit:40:40"], "small": ["rs:fit:20:20"], "png": ["f:png"]]
            $0.paths.onlyPresets = true
        }
        let byDefault = await h.get(Self.signed("/png/plain/\(h.url("/a.jpg"))"))
        #expect(byDefault.status == 200 && byDefault.header("Content-Type") == "image/png")
        #expect(try Image(decoding: byDefault.body).width == 40, "the default preset applies first")
        let small = await h.get(Self.signed("/small:png/plain/\(h.url("/a.jpg"))"))
        #expect(try Image(decoding: small.body).width == 20)
        #expect(await h.get(Self.signed("/nope/plain/\(h.url("/a.jpg"))")).status == 400)
        try await h.finish()
        let allowed = try await Self.harness(Self.images) {
            $0.presets = ["thumb": ["rs:fit:16:16", "bl:1"]]
            $0.paths.allowedOptions = ["w", "pr"]
        }
        #expect(await allowed.get(allowed.target("w:30", "/a.jpg")).status == 200)
        #expect(await allowed.get(allowed.target("pr:thumb", "/a.jpg")).status == 200, "a preset's own options pass")
        let refused = await allowed.get(allowed.target("w:30/bl:2", "/a.jpg"))
        #expect(refused.status == 403 && refused.body == Array("processing option not allowed\n".utf8))
        try await allowed.finish()
    }

    /// A replacement or base URL makes a source like any other: a scheme this server does not serve
    /// is 400, `local://` without a root 403, and an address the policy refuses is never fetched.
    @Test func replacementsCannotMakeASourceThePolicyRefuses() async throws {
        let inside = try await LoopbackServer(host: "127.0.0.1") { _ in .ok(NetFixture.jpeg, contentType: "image/jpeg")
        }
        let h = try await Self.harness(Self.images) {
            $0.paths.replacements =
                SourceReplacement.list(
                    "f://=file:///etc/;l://=local:///;in://=http://127.0.0.1:\(inside.port)/;ok://=\("http://127.0.0.2:")"
                )
                ?? []
        }
        let port = h.origin.port
        #expect(await h.get(Self.signed("/w:10/plain/f://passwd")).status == 400)
        #expect(await h.get(Self.signed("/w:10/plain/l://a.jpg")).status == 403)
        let refused = await h.get(Self.signed("/w:10/plain/in://a.jpg"))
        #expect(refused.status == 403, "\(refused.status) \(String(decoding: refused.body, as: UTF8.self))")
        #expect(inside.requestCount("/a.jpg") == 0, "the refused address is never asked")
        let ok = await h.get(Self.signed("/w:10/plain/ok://\(port)/a.jpg"))
        #expect(ok.status == 200, "\(ok.status)")
        try await h.finish()
        try await inside.shutdown()
    }
}
