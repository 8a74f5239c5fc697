import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie
@testable import MagpieServer

/// The rest of imgproxy's grammar over loopback: trim, crop, smart gravity, extend, pixelate,
/// format quality, max bytes, skip processing, raw, auto-rotate, keep copyright, the embedded
/// thumbnail and the per-request limits, in imgproxy's order.
extension ImageServiceTests {
    /// A JPEG with an EXIF APP1 after SOI: IFD0's orientation and, when given, an IFD1 thumbnail.
    static func exifJPEG(_ jpeg: [UInt8], orientation: UInt16, thumbnail: [UInt8]? = nil) -> [UInt8] {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16) }
        var tiff: [UInt8] = Array("II*\u{0}".utf8) + le32(8)
        tiff += le16(1) + le16(0x0112) + le16(3) + le32(1) + le16(Int(orientation)) + le16(0)
        tiff += le32(thumbnail == nil ? 0 : 26)
        if let thumbnail {
            tiff += le16(2) + le16(0x0201) + le16(4) + le32(1) + le32(56)
            tiff += le16(0x0202) + le16(4) + le32(1) + le32(thumbnail.count) + le32(0) + thumbnail
        }
        let length = 8 + tiff.count
        let app1: [UInt8] =
            [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + Array("Exif\u{0}\u{0}".utf8) + tiff
        return Array(jpeg[0..<2]) + app1 + Array(jpeg[2...])
    }

    static let bordered: [UInt8] = {
        // 60×40 white with a dark 20×20 block at (20, 10).
        var rgba = [UInt8](repeating: 255, count: 60 * 40 * 4)
        for y in 10..<30 { for x in 20..<40 { for c in 0..<3 { rgba[(y * 60 + x) * 4 + c] = 30 } } }
        return try! Image(width: 60, height: 40, rgba: rgba).encoded(as: .png())
    }()
    static let blue = try! Image(
        width: 12, height: 8, rgba: Array(repeating: [0, 0, 220, 255], count: 96).flatMap { $0 }
    )
    .encoded(as: .jpeg(quality: 90))
    static let rotated = exifJPEG(NetFixture.jpeg, orientation: 6, thumbnail: blue)
    static let signedByRights = try! ImageMetadata.writing(
        .init(copyright: "(c) 2026 Example", artist: "A. Photographer"), into: NetFixture.jpeg, width: 96, height: 64)

    static let more: LoopbackServer.Handler = { request in
        switch request.path {
        case "/border.png": return .ok(bordered, contentType: "image/png")
        case "/rotated.jpg": return .ok(rotated, contentType: "image/jpeg")
        case "/rights.jpg": return .ok(signedByRights, contentType: "image/jpeg")
        default: return await images(request)
        }
    }

    func image(_ h: Harness, _ options: String, _ path: String, ext: String? = "png") async throws -> Image {
        let r = await h.get(h.target(options, path, ext: ext))
        #expect(r.status == 200, "\(options): \(r.status) \(String(decoding: r.body, as: UTF8.self))")
        return try Image(decoding: r.body)
    }

    @Test func trimCropAndResizeRunInImgproxysOrder() async throws {
        let h = try await Self.harness(Self.more)
        let trimmed = try await image(h, "t:10", "/border.png")
        #expect(trimmed.width == 20 && trimmed.height == 20 && trimmed.pixels[0] == 30)
        // Trim before crop: the crop's top-left corner is the dark block's.
        let cropped = try await image(h, "c:10:10:nowe/t:10", "/border.png")
        #expect(cropped.width == 10 && cropped.pixels[0] == 30)
        // Crop before resize: the resize sees the crop's 48×32.
        #expect(try await image(h, "rs:fit:24:24/c:48:32", "/a.jpg").width == 24)
        #expect(try await image(h, "rs:fit:24:24/c:48:32", "/a.jpg").height == 16)
        // A trim colour that is not the border's leaves the image whole; equal trims.
        #expect(try await image(h, "t:10:ff0000", "/border.png").width == 60)
        #expect(try await image(h, "t:10::1:1", "/border.png").height == 20)
        // Extend onto a background after the resize; pixelate in blocks; zoom and a minimum.
        let extended = try await image(h, "rs:fit:80:80/ex:1:nowe/bg:00ff00", "/a.jpg")
        #expect(extended.width == 80 && extended.height == 80 && Array(extended.pixels.suffix(4)) == [0, 255, 0, 255])
        let blocks = try await image(h, "pix:8", "/a.jpg")
        #expect(Array(blocks.pixels[0..<4]) == Array(blocks.pixels[(7 * 96 + 7) * 4..<(7 * 96 + 8) * 4]))
        #expect(try await image(h, "z:0.5", "/a.jpg").width == 48)
        #expect(try await image(h, "w:48/mh:48", "/a.jpg").height == 48)
        #expect(h.origin.requestCount("/border.png") == 1 && h.origin.requestCount("/a.jpg") == 1)
        try await h.finish()
    }

    @Test func qualityPerFormatAndMaxBytes() async throws {
        let big = try Image(
            width: 400, height: 300,
            rgba: Fixture.gradient(width: 400, height: 300) { x, y in
                UInt8((x * 7 + y * 13) % 256)
            }
        ).encoded(as: .png())
        let h = try await Self.harness({ _ in .ok(big, contentType: "image/png") })
        func body(_ options: String) async -> [UInt8] { await h.get(h.target(options, "/p.png", ext: "jpg")).body }
        let standard = await body("w:400")
        let low = await body("w:400/fq:jpg:20:webp:90")
        let fixed = await body("w:400/q:90/fq:jpg:20")
        #expect(low.count < standard.count && fixed.count > standard.count, "fq sets jpg's quality unless q does")
        #expect(fixed == (await body("w:400/q:90")))
        // max_bytes: under the limit when it can be, the smallest made when it cannot.
        let limited = await body("w:400/mb:\(standard.count / 2)")
        #expect(limited.count <= standard.count / 2 && limited.count > standard.count / 8)
        let impossible = await body("w:400/mb:100")
        #expect(impossible == (await body("w:400/q:10")))
        let png = await h.get(h.target("w:400/mb:100", "/p.png", ext: "png")).body
        #expect(png == (await h.get(h.target("w:400", "/p.png", ext: "png")).body), "PNG is not lossy: mb does nothing")
        try await h.finish()
    }

    @Test func maxBytesEncodesAtMostFourTimes() throws {
        for limit in [10, 500, 2_000, 4_000, 6_000, 100_000] {
            var encodes = 0
            let body = OutputSerializer.fitting(maxBytes: limit, quality: 80) { q in
                encodes += 1
                return [UInt8](repeating: 0, count: q * 75)  // the size grows with quality
            }
            #expect(encodes <= 4, "\(limit): \(encodes) encodes")
            #expect(body.count <= max(limit, 750), "\(limit): \(body.count)")
            if limit >= 750 && limit < 6_000 { #expect(body.count > limit / 2, "\(limit): too low a quality") }
        }
    }

    @Test func skipProcessingAndRawAnswerTheSourceBytes() async throws {
        let h = try await Self.harness(Self.more)
        let skipped = await h.get(h.target("rs:fit:10:10/skp:jpg", "/a.jpg"))
        #expect(
            skipped.status == 200 && skipped.body == NetFixture.jpeg && skipped.header("Content-Type") == "image/jpeg")
        #expect(skipped.header("X-Magpie-Cache") == "source")
        let processed = await h.get(h.target("rs:fit:10:10/skp:jpg", "/a.jpg", ext: "png"))
        #expect(try Image(decoding: processed.body).width == 10, "another output format is processed")
        let other = await h.get(h.target("rs:fit:10:10/skp:png", "/a.jpg"))
        #expect(try Image(decoding: other.body).width == 10)
        #expect(await h.get(h.target("skp:jpg/msr:0.001", "/a.jpg")).status == 422, "limits still hold")
        let raw = await h.get(h.target("rs:fit:10:10/raw:1", "/a.jpg", ext: "png"))
        #expect(raw.status == 200 && raw.body == NetFixture.jpeg && raw.header("Content-Type") == "image/jpeg")
        #expect(await h.get(h.target("raw:1", "/text")).status == 422, "never a body that is not an image")
        // The address policy holds for the source's bytes as for any source: the server's own
        // loopback and the cloud metadata address are refused, with nothing fetched.
        for host in ["127.0.0.1:\(h.origin.port)", "169.254.169.254"] {
            for options in ["raw:1", "skp:jpg"] {
                let signed = "/\(options)/plain/http://\(host)/a.jpg"
                let r = await h.get("/" + URLSignature.sign(signed, with: Self.key) + signed)
                #expect(r.status == 403, "\(options) from \(host): \(r.status)")
            }
        }
        #expect(h.origin.requestCount("/a.jpg") == 1, "one download, through the source cache")
        try await h.finish()
    }

    @Test func autoRotateThumbnailsAndCopyright() async throws {
        let h = try await Self.harness(Self.more)
        let upright = try await image(h, "", "/rotated.jpg")
        #expect(upright.width == 64 && upright.height == 96)
        let stored = try await image(h, "ar:0", "/rotated.jpg")
        #expect(stored.width == 96 && stored.height == 64)
        // eth: the EXIF thumbnail (blue, 12×8, turned by the image's orientation) is decoded where
        // it is large enough for the output, which stays what the image gives.
        let thumb = try await image(h, "eth:1/rs:fit:8:8", "/rotated.jpg")
        #expect(thumb.width == 5 && thumb.height == 8 && thumb.pixels[2] > 180 && thumb.pixels[0] < 40)
        let plain = try await image(h, "rs:fit:8:8", "/rotated.jpg")
        #expect(plain.width == 5 && plain.height == 8 && plain.pixels[2] < 180)
        let large = try await image(h, "eth:1/rs:fit:50:50", "/rotated.jpg")
        #expect(large.width == 33 && large.height == 50 && large.pixels[2] < 180, "larger than the thumbnail")
        // kcr: the source's copyright and artist, and nothing of it without.
        let kept = await h.get(h.target("w:40/kcr:1", "/rights.jpg"))
        #expect(ImageMetadata.rights(in: kept.body) == .init(copyright: "(c) 2026 Example", artist: "A. Photographer"))
        let webp = await h.get(h.target("w:40/kcr:1", "/rights.jpg", ext: "webp"))
        #expect(ImageMetadata.rights(in: webp.body).copyright == "(c) 2026 Example")
        #expect(try Image(decoding: webp.body).width == 40)
        #expect(ImageMetadata.rights(in: await h.get(h.target("w:40/sm:1", "/rights.jpg")).body).isEmpty)
        try await h.finish()
    }

    @Test func perRequestLimitsOnlyTighten() async throws {
        let h = try await Self.harness(Self.more) { $0.maxSourcePixels = 5_000 }
        #expect(await h.get(h.target("w:10", "/a.png")).status == 200, "40×30 is within 5,000 px")
        #expect(await h.get(h.target("w:10", "/a.jpg")).status == 422, "96×64 is not")
        #expect(await h.get(h.target("w:10/msr:100", "/a.jpg")).status == 422, "msr cannot loosen")
        #expect(await h.get(h.target("w:10/msr:0.001", "/a.png")).status == 422, "but can tighten")
        #expect(await h.get(h.target("w:10/msfs:100", "/a.png")).status == 422)
        #expect(await h.get(h.target("w:10/maf:1/mafr:0.001", "/a.png")).status == 200, "one frame: mafr is moot")
        // `mrd` scales the result down to it (imgproxy's max_result_dimension), padding included.
        let limited = await h.get(h.target("w:100/el:1/mrd:50", "/a.png", ext: "png"))
        #expect(limited.status == 200)
        #expect(try Image(decoding: limited.body).width == 50)
        let padded = await h.get(h.target("w:100/el:1/pd:10/mrd:50", "/a.png", ext: "png"))
        #expect(try Image(decoding: padded.body).width == 50)
        let fetched = h.origin.totalRequests
        for bad in [
            "msr:0", "msr:-1", "msfs:0", "maf:x", "mrd:0", "fq:jpg", "fq:bmp:50", "fq:jpg:101", "mb:-1", "skp:exe",
            "raw:2", "ar:x", "eth:2", "kcr:yes", "sm:2", "t:300", "t:10:zzzzzz", "pix:-1",
        ] {
            #expect(await h.get(h.target(bad, "/a.png")).status == 400, "\(bad)")
        }
        #expect(h.origin.totalRequests == fetched, "malformed values are 400 before any fetch")
        try await h.finish()
    }
}
