import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie
@testable import MagpieServer

/// imgproxy's `scp` (strip_color_profile): by default a tagged source is converted to sRGB and the
/// result carries no profile; `scp:0` keeps the profile in the result; a server that keeps them
/// by default strips them for `scp:1`. Each is a variant of its own.
extension ImageServiceTests {
    @Test func colorProfilesAreConvertedUnlessAURLKeepsThem() async throws {
        let tagged = try ColorProfileTests.taggedJPEG()
        let handler: LoopbackServer.Handler = { request in
            request.path == "/p.jpg" ? .ok(tagged, contentType: "image/jpeg") : .respond(status: 404)
        }
        let h = try await Self.harness(handler)
        let plain = await h.get(h.target("rs:fit:64:64", "/p.jpg", ext: "jpg"))
        let kept = await h.get(h.target("rs:fit:64:64/scp:0", "/p.jpg", ext: "jpg"))
        let stripped = await h.get(h.target("rs:fit:64:64/strip_color_profile:1", "/p.jpg", ext: "jpg"))
        #expect(plain.status == 200 && kept.status == 200 && stripped.status == 200)
        #expect(
            !ColorProfileTests.contains(plain.body, "ICC_PROFILE")
                && ColorProfileTests.contains(kept.body, "ICC_PROFILE"))
        #expect(stripped.body == plain.body && kept.body != plain.body)
        #expect(await h.get(h.target("scp:2", "/p.jpg")).status == 400)
        #expect(h.origin.requestCount("/p.jpg") == 1)
        try await h.finish()
        // A server that keeps profiles by default.
        let k = try await Self.harness(handler) { $0.keepsColorProfile = true }
        let byDefault = await k.get(k.target("rs:fit:64:64", "/p.jpg", ext: "png"))
        let asked = await k.get(k.target("rs:fit:64:64/scp:1", "/p.jpg", ext: "png"))
        #expect(ColorProfileTests.contains(byDefault.body, "iCCP") && !ColorProfileTests.contains(asked.body, "iCCP"))
        try await k.finish()
    }
}
