import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie
@testable import MagpieImage
@testable import MagpieServer

/// Animations through the service: kept animated in their own format, or the one asked for or
/// accepted, a frame at a time; `maf` and `--max-animation-frames` keep the first frames; formats
/// without animations get the first frame.
extension ImageServiceTests {
    static func animations() throws -> LoopbackServer.Handler {
        let gif = EncodingFormat.gif().animates ? try AnimationTests.animation(.gif(), count: 6) : nil
        let webp = try AnimationTests.animation(.webpLossless(), count: 6)
        return { request in
            switch request.path {
            case "/a.gif": return gif.map { .ok($0, contentType: "image/gif") } ?? .respond(status: 404)
            case "/a.webp": return .ok(webp, contentType: "image/webp")
            default: return .respond(status: 404)
            }
        }
    }

    @Test func animationsStayAnimated() async throws {
        let h = try await Self.harness(try Self.animations()) {
            $0.autoWebP = true
            $0.maxAnimationFrames = 5
        }
        func frames(_ r: ServiceResponse) throws -> Image { try Image(decoding: r.body) }
        // A WebP animation, auto: WebP, five of its six frames (the server's limit), resized.
        let own = await h.get(h.target("rs:fit:30:30", "/a.webp"))
        #expect(own.status == 200 && own.header("Content-Type") == "image/webp")
        let ownImage = try frames(own)
        #expect(ownImage.frames.count == 5 && ownImage.width == 30 && ownImage.height == 20)
        // maf tightens; maf:1 is the first frame alone.
        #expect(try frames(await h.get(h.target("rs:fit:30:30/maf:3", "/a.webp"))).frames.count == 3)
        let one = await h.get(h.target("rs:fit:30:30/maf:1", "/a.webp"))
        #expect(try frames(one).frames.count == 1)
        // Formats without animations: the first frame.
        let jpeg = await h.get(h.target("rs:fit:30:30", "/a.webp", ext: "jpg"))
        let jpegFrames = try frames(jpeg).frames.count
        #expect(jpeg.header("Content-Type") == "image/jpeg" && jpegFrames == 1)
        if EncodingFormat.gif().animates {
            // A GIF stays a GIF, unless the client takes WebP (auto) or asks for one.
            let gif = await h.get(h.target("rs:fill:20:20", "/a.gif"))
            let gifFrames = try frames(gif).frames.count
            #expect(gif.header("Content-Type") == "image/gif" && gifFrames == 5)
            let accepted = await h.get(h.target("rs:fill:20:20", "/a.gif"), headers: [("Accept", "image/webp")])
            #expect(accepted.header("Content-Type") == "image/webp" && accepted.header("Vary") == "Accept")
            let acceptedImage = try frames(accepted)
            #expect(acceptedImage.frames.count == 5 && acceptedImage.width == 20)
            let asked = await h.get(h.target("rs:fill:20:20", "/a.webp", ext: "gif"))
            let askedFrames = try frames(asked).frames.count
            #expect(asked.header("Content-Type") == "image/gif" && askedFrames == 5)
            // Asked again: the same bytes from the variant's entry, no new fetch.
            #expect(await h.get(h.target("rs:fill:20:20", "/a.gif")).body == gif.body)
            #expect(h.origin.requestCount("/a.gif") == 1)
        }
        try await h.finish()
    }

    @Test func acceptChoosesAnAnimationsFormatApartFromAStills() async throws {
        guard EncodingFormat.gif().animates, ImageFormat.avif.isEncodable else {
            print("SKIPPED: no GIF or AVIF output here")
            return
        }
        let h = try await Self.harness(try Self.animations()) {
            $0.autoAVIF = true
            $0.autoWebP = true
        }
        let target = h.target("rs:fit:30:30", "/a.gif")
        // Both ask for AVIF for stills; one takes WebP too. Asked twice each (the plan memo).
        // (With --auto-avif alone an animation keeps its own format, as imgproxy's does: only
        // --auto-webp or --enforce-webp turn one into WebP.)
        for _ in 0..<2 {
            let both = await h.get(target, headers: [("Accept", "image/avif,image/webp")])
            #expect(both.header("Content-Type") == "image/webp" && both.header("Vary") == "Accept")
            let avifOnly = await h.get(target, headers: [("Accept", "image/avif")])
            #expect(avifOnly.header("Content-Type") == "image/gif", "AVIF has no animations here: its own format")
            #expect(try Image(decoding: avifOnly.body).frames.count == 6)
        }
        try await h.finish()
    }
}
