import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie
@testable import MagpieServer

/// JPEG XL results (`@jxl`, `f:jxl`, `--auto-jxl` and `--enforce-jxl` by `Accept`, stills only, as
/// imgproxy's `determineOutputFormat` has it: JPEG XL over AVIF over WebP), the server's JPEG XL
/// effort, PNG palettes and WebP presets, each through the service.
extension ImageServiceTests {
    @Test func jpegXLIsWrittenWhenAskedForOrAccepted() async throws {
        guard ImageFormat.jxl.isEncodable else {
            print("SKIPPED: this build or machine has no JPEG XL encoder")
            return
        }
        let h = try await Self.harness(Self.images) {
            $0.autoJXL = true
            $0.autoAVIF = ImageFormat.avif.isEncodable
            $0.autoWebP = true
        }
        for target in [h.target("rs:fit:48:48", "/a.jpg", ext: "jxl"), h.target("rs:fit:48:48/f:jxl", "/a.jpg")] {
            let r = await h.get(target)
            #expect(r.status == 200 && r.header("Content-Type") == "image/jxl")
            let image = try Image(decoding: r.body)
            #expect(image.width == 48 && image.height == 32)
        }
        let auto = h.target("rs:fit:48:48", "/a.jpg")
        let all = "image/jxl,image/avif,image/webp,image/*,*/*;q=0.8"
        for _ in 0..<2 {  // asked twice: the plan memo keeps each answer apart
            let jxl = await h.get(auto, headers: [("Accept", all)])
            #expect(jxl.header("Content-Type") == "image/jxl" && jxl.header("Vary") == "Accept")
            let webp = await h.get(auto, headers: [("Accept", "image/webp")])
            #expect(webp.header("Content-Type") == "image/webp")
            #expect(await h.get(auto).header("Content-Type") == "image/jpeg")
        }
        // A named format is kept with --auto-jxl; fq sets JPEG XL's own quality.
        #expect(
            await h.get(h.target("w:48", "/a.jpg", ext: "png"), headers: [("Accept", all)]).header("Content-Type")
                == "image/png")
        let standard = await h.get(h.target("w:96", "/a.jpg", ext: "jxl")).body
        let low = await h.get(h.target("w:96/fq:jxl:20", "/a.jpg", ext: "jxl")).body
        #expect(low.count < standard.count, "\(low.count) against \(standard.count)")
        try await h.finish()
    }

    @Test func enforcedJPEGXLReplacesANamedFormatForStillsOnly() async throws {
        guard ImageFormat.jxl.isEncodable, EncodingFormat.gif().animates else {
            print("SKIPPED: no JPEG XL or GIF output here")
            return
        }
        let h = try await Self.harness(Self.images) { $0.enforceJXL = true }
        let named = await h.get(h.target("w:48", "/a.jpg", ext: "png"), headers: [("Accept", "image/jxl")])
        #expect(named.header("Content-Type") == "image/jxl" && named.header("Vary") == "Accept")
        #expect(await h.get(h.target("w:48", "/a.jpg", ext: "png")).header("Content-Type") == "image/png")
        try await h.finish()
        let a = try await Self.harness(try Self.animations()) { $0.enforceJXL = true }
        let animated = await a.get(a.target("rs:fit:30:30", "/a.gif", ext: "gif"), headers: [("Accept", "image/jxl")])
        #expect(animated.header("Content-Type") == "image/gif", "JPEG XL is for stills: the animation stays GIF")
        #expect(try Image(decoding: animated.body).frames.count == 6)
        try await a.finish()
    }

    @Test func theServersEncoderSettingsReachTheResults() async throws {
        var bodies: [[UInt8]] = []
        if ImageFormat.jxl.isEncodable {
            for effort in [1, 7] {
                let h = try await Self.harness(Self.images) { $0.jxlEffort = effort }
                let r = await h.get(h.target("w:64", "/a.jpg", ext: "jxl"))
                let width = try Image(decoding: r.body).width
                #expect(r.status == 200 && width == 64)
                bodies.append(r.body)
                try await h.finish()
            }
            #expect(bodies[0] != bodies[1], "effort 1 and effort 7 write different bytes")
        }
        if ImageFormat.palettesAvailable {
            let h = try await Self.harness(Self.images) { $0.pngPaletteColors = 16 }
            // Named and chosen by `auto` alike (the PNG source's own format).
            for target in [h.target("w:64", "/a.jpg", ext: "png"), h.target("w:64", "/a.png")] {
                let r = await h.get(target)
                #expect(r.header("Content-Type") == "image/png" && r.body[25] == 3, "a palette PNG")
            }
            try await h.finish()
        }
        bodies = []
        for preset in [EncodingFormat.WebPPreset.default, .text] {
            let h = try await Self.harness(Self.images) { $0.webpPreset = preset }
            bodies.append(await h.get(h.target("w:64", "/a.jpg", ext: "webp")).body)
            try await h.finish()
        }
        #expect(bodies[0] != bodies[1], "the text preset is not the default one")
        // Each setting names its variant (so one server's results never answer for another's),
        // and a default server's names are what they were.
        #expect(OutputSerializer.settingsName(OutputSerializer.baseline).isEmpty)
        var s = OutputSerializer.baseline
        (s.jxlEffort, s.webpPreset, s.pngPaletteColors) = (9, .photo, 64)
        #expect(OutputSerializer.settingsName(s) == ",webp-preset:photo,jxl-effort9,png-colors64")
    }
}

/// imgproxy's `IMGPROXY_SANITIZE_SVG`: an SVG answered as it is (`raw`, `skp:svg`) can carry a
/// hostile origin's script; it goes with a policy that runs and loads nothing. Other answers do not.
extension ImageServiceTests {
    static let hostileSVG = Array(
        #"<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10" onload="alert(1)"><script>alert(2)</script><rect width="20" height="10" fill="red"/></svg>"#
            .utf8)

    @Test func anSVGAnsweredAsItIsRunsNothing() async throws {
        let h = try await Self.harness({ request in
            if request.path == "/a.svg" { return .ok(Self.hostileSVG, contentType: "image/svg+xml") }
            return await Self.images(request)
        })
        for options in ["raw:1", "skp:svg"] {
            let r = await h.get(h.target(options, "/a.svg"))
            #expect(r.status == 200 && r.header("Content-Type") == "image/svg+xml", "\(options): \(r.status)")
            #expect(r.body == Self.hostileSVG, "the source's own bytes")
            let policy = r.header("Content-Security-Policy") ?? ""
            #expect(policy.contains("sandbox") && policy.contains("default-src 'none'"), "\(options): \(policy)")
        }
        let drawn = await h.get(h.target("w:10", "/a.svg", ext: "png"))
        #expect(drawn.status == 200 && drawn.header("Content-Security-Policy") == nil, "a PNG needs no policy")
        try await h.finish()
    }
}

/// imgproxy's `IMGPROXY_DISABLE_SHRINK_ON_LOAD`: sources decoded whole (`DecodingOptions.Quality.full`,
/// the C core's `MAGPIE_DECODE_NO_SHRINK`, whose pixels `test_resample.c` checks), each result a
/// variant of its own.
extension ImageServiceTests {
    @Test func withoutShrinkOnLoadAResultIsAVariantOfItsOwn() async throws {
        let h = try await Self.harness(Self.images) { $0.decodeQuality = .full }
        let r = await h.get(h.target("w:20", "/a.jpg"))
        let width = try Image(decoding: r.body).width
        #expect(r.status == 200 && width == 20)
        try await h.finish()
        var limits = Variant.SourceLimits(pixels: 1 << 30, frames: 1 << 20, framePixels: 1 << 40)
        let options = try ProcessingOptions.parse(["w:20"], presets: [:])
        #expect(!Variant(options, format: "jpg", limits: limits).processor.identifier.contains("full"))
        limits.quality = .full
        #expect(Variant(options, format: "jpg", limits: limits).processor.identifier.contains("|full"))
        #expect(DownsamplingProcessor(width: 8, height: 8, quality: .full).identifier.contains(",full"))
    }
}
