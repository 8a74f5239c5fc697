import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie
@testable import MagpieServer

/// imgproxy's effect options through the service: parsed strictly, bounded before anything is
/// fetched, each a variant of its own, and applied as the library's processors would.
extension ImageServiceTests {
    @Test func effectOptionsAreAppliedAndEachIsItsOwnVariant() async throws {
        let mark = try Image(width: 8, height: 8, rgba: Array(repeating: [255, 0, 0, 255], count: 64).flatMap { $0 })
        let h = try await Self.harness(Self.images) { $0.watermark = OverlayProcessor(mark) }
        let upright = try Image(
            decoding: NetFixture.jpeg, options: DecodingOptions(resize: .fit(width: 48, height: 48)))
        // rot:90 turns the result; the size asked for is of the turned image (imgproxy's rule).
        let turned = await h.get(h.target("rs:fit:32:48/rot:90", "/a.jpg", ext: "png"))
        #expect(turned.status == 200)
        let t = try Image(decoding: turned.body)
        let want = try upright.transformed(.right)
        #expect(t.width == 32 && t.height == 48 && t.pixels == want.pixels)
        // Blur and flip, padding and a background, a watermark: every answer a different variant.
        var bodies: Set<[UInt8]> = [turned.body]
        for options in [
            "rs:fit:48:48/bl:2", "rs:fit:48:48/sh:1", "rs:fit:48:48/fl:1:0", "rs:fit:48:48/fl:0:1",
            "rs:fit:48:48/bri:40", "rs:fit:48:48/co:1.5", "rs:fit:48:48/sa:0", "rs:fit:48:48/pd:4",
            "rs:fit:48:48/pd:4/bg:0000ff", "rs:fit:48:48/wm:0.5:soea:2:2", "rs:fit:48:48/wm:1:ce:0:0:0.5",
        ] {
            let r = await h.get(h.target(options, "/a.jpg", ext: "png"))
            #expect(r.status == 200, "\(options)")
            #expect(bodies.insert(r.body).inserted, "\(options) made the same bytes as another variant")
        }
        let padded = try Image(
            decoding: await h.get(h.target("rs:fit:48:48/pd:4:6/bg:0000ff", "/a.jpg", ext: "png")).body)
        #expect(padded.width == 48 + 12 && padded.height == 32 + 8 && Array(padded.pixels[0..<4]) == [0, 0, 255, 255])
        let gray = try Image(decoding: await h.get(h.target("rs:fit:48:48/sa:0", "/a.jpg", ext: "png")).body)
        #expect(stride(from: 0, to: gray.pixels.count, by: 4).allSatisfy { gray.pixels[$0] == gray.pixels[$0 + 1] })
        let marked = try Image(decoding: await h.get(h.target("rs:fit:48:48/wm:1:nowe", "/a.jpg", ext: "png")).body)
        #expect(Array(marked.pixels[0..<4]) == [255, 0, 0, 255])
        #expect(h.origin.requestCount("/a.jpg") == 1, "every variant came from the one source")
        try await h.finish()
    }

    @Test func badEffectOptionsAre400BeforeAnythingIsFetched() async throws {
        let h = try await Self.harness(Self.images) { $0.maxSigma = 10 }
        for options in [
            "bl:nan", "bl:-1", "bl:1e3", "bl:11", "sh:inf", "bl:1.2.3", "rot:45", "rot:-90", "fl:2", "bri:256",
            "bri:--1", "co:11", "sa:-1", "pd:1:2:3:4:5", "pd:70000", "pd:x", "bg:300:0:0", "bg:12345", "bg:zzzzzz",
            "wm:2", "wm:0.5:up", "rs:fit:48:48/pd:5000",
        ] {
            let r = await h.get(h.target(options, "/a.jpg"))
            #expect(r.status == 400, "\(options): \(r.status)")
        }
        #expect(h.origin.requestCount("/a.jpg") == 0)
        // A watermark asked of a server without one is parsed and draws nothing (as imgproxy).
        let marked = await h.get(h.target("rs:fit:48:48/wm:0.5:soea:10:20:0.6", "/a.jpg", ext: "png"))
        let unmarked = await h.get(h.target("rs:fit:48:48", "/a.jpg", ext: "png"))
        #expect(marked.status == 200 && marked.body == unmarked.body)
        try await h.finish()
    }

    @Test func effectOptionsNameTheirVariant() throws {
        let all = try ProcessingOptions.parse(
            [
                "rs:fill:10:20", "bl:1.5", "sh:0.5", "rot:270", "fl:1", "bri:-3", "co:1.2", "sa:0.8", "pd:1:2:3",
                "bg:10:20:30", "wm:0.5:soea:3:4:0.25",
            ], presets: [:])
        #expect(
            all.variantName
                == "fill,10x20,ce,bl1.5,sh0.5,rot270,flh,col0.8:1.2:-3,pd1:2:3:2,bg0a141eff,wm0.5:soea:3:4:0.25")
        #expect(try ProcessingOptions.parse(["bl:0", "rot:0", "wm:0"], presets: [:]).variantName == "fit,0x0,ce")
        // The gravity of a fill is of the turned result: north after a quarter turn is the top of
        // the turned picture (the source's left side, turned clockwise).
        let source = ImgproxyTableTests.source
        let north = try ImgproxyTableTests.render(["rs:fill:100:20", "g:no", "rot:90"])
        let turned = try source.transformed(.right)
        #expect(north.width == 100 && north.height == 20)
        #expect(north.pixels == (try turned.cropped(to: PixelRect(x: 0, y: 0, width: 100, height: 20))).pixels)
        let south = try ImgproxyTableTests.render(["rs:fill:100:20", "g:so", "rot:90"])
        #expect(south.pixels == (try turned.cropped(to: PixelRect(x: 0, y: 180, width: 100, height: 20))).pixels)
    }
}
