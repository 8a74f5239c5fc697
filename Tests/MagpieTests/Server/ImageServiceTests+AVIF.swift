import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie
@testable import MagpieServer

/// AVIF results: asked for by `@avif` and `f:avif`, chosen by `Accept` with `--auto-avif` (over
/// WebP, with `Vary: Accept`), at the quality `fq` gives, within `mb`.
extension ImageServiceTests {
    @Test func avifIsWrittenWhenAskedForOrAccepted() async throws {
        guard ImageFormat.avif.isEncodable else {
            print("SKIPPED: this build or machine has no AVIF encoder")
            return
        }
        let h = try await Self.harness(Self.images) {
            $0.autoAVIF = true
            $0.autoWebP = true
        }
        for target in [h.target("rs:fit:48:48", "/a.jpg", ext: "avif"), h.target("rs:fit:48:48/f:avif", "/a.jpg")] {
            let r = await h.get(target)
            #expect(r.status == 200 && r.header("Content-Type") == "image/avif")
            let image = try Image(decoding: r.body)
            #expect(image.width == 48 && image.height == 32)
        }
        let auto = h.target("rs:fit:48:48", "/a.jpg")
        let avif = await h.get(auto, headers: [("Accept", "image/avif,image/webp,image/*,*/*;q=0.8")])
        #expect(avif.header("Content-Type") == "image/avif" && avif.header("Vary") == "Accept")
        let webp = await h.get(auto, headers: [("Accept", "image/webp,*/*")])
        #expect(webp.header("Content-Type") == "image/webp" && webp.header("Vary") == "Accept")
        let jpeg = await h.get(auto)
        #expect(jpeg.header("Content-Type") == "image/jpeg")
        // Asked again (the plan memo, the variant memory): still what each Accept chose.
        #expect(await h.get(auto, headers: [("Accept", "image/avif")]).header("Content-Type") == "image/avif")
        #expect(await h.get(auto).header("Content-Type") == "image/jpeg")
        // fq sets AVIF's own quality; mb holds an AVIF under its limit.
        let standard = await h.get(h.target("w:96", "/a.jpg", ext: "avif")).body
        let low = await h.get(h.target("w:96/fq:avif:10", "/a.jpg", ext: "avif")).body
        #expect(low.count < standard.count, "\(low.count) against \(standard.count)")
        let limited = await h.get(h.target("w:96/mb:\(standard.count * 3 / 4)", "/a.jpg", ext: "avif")).body
        let decoded = try Image(decoding: limited)
        #expect(limited.count <= standard.count * 3 / 4 && decoded.width == 96)
        #expect(h.origin.requestCount("/a.jpg") == 1)
        try await h.finish()
    }
}
