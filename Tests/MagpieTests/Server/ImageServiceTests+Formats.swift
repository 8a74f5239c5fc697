import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie
@testable import MagpieServer

/// An origin's BMP, ICO, TIFF, HEIC, JPEG XL and SVG are thumbnails like any other source (they were 422).
extension ImageServiceTests {
    @Test func theOtherFormatsAreServed() async throws {
        let names = [
            "bmp-pal8.bmp", "cur-bmp.cur", "tiff-rgba16-tiles.tif", "heic-thumb.heic", "jxl-container.jxl",
            "svg-shapes.svg",
        ]
        var bodies: [String: [UInt8]] = [:]
        for name in names { bodies["/" + name] = try [UInt8](FormatFixtures.bytes(name)) }
        let served = bodies
        let h = try await Self.harness { request in
            served[request.path].map { .ok($0, contentType: "application/octet-stream") } ?? .respond(status: 404)
        }
        for name in names {
            let answer = await h.get(h.target("rs:fit:32:32", "/" + name, ext: "png"))
            #expect(answer.status == 200, "\(name): \(answer.status)")
            let info = try ImageInfo(probing: answer.body)
            #expect(info.format == .png && max(info.width, info.height) == 32, "\(name): \(info.width)x\(info.height)")
        }
        // An SVG is never served as SVG: without a format asked for, a raster with its alpha.
        let auto = await h.get(h.target("rs:fit:32:32", "/svg-shapes.svg"))
        #expect(auto.status == 200 && (try? ImageInfo(probing: auto.body).format) == .png)
        // A vector is drawn at the size asked, past its own 60×40, without `el` (imgproxy's
        // IsVector); a raster is not enlarged.
        let drawn = try ImageInfo(probing: await h.get(h.target("rs:fit:240:240", "/svg-shapes.svg", ext: "png")).body)
        #expect(drawn.width == 240 && drawn.height == 160)
        let raster = try ImageInfo(probing: await h.get(h.target("rs:fit:240:240", "/bmp-pal8.bmp", ext: "png")).body)
        let own = try ImageInfo(probing: served["/bmp-pal8.bmp"]!)
        #expect(raster.width == own.width && raster.height == own.height)
        try await h.finish()
        // An origin that sends the image gzip-encoded (they were 422): inflated, then thumbnailed.
        let gz = try DownloaderTests.encoded("png.gz")
        let g = try await Self.harness { request in
            request.path == "/g.png"
                ? .respond(
                    status: 200, headers: [("Content-Type", "image/png"), ("Content-Encoding", "gzip")], body: gz)
                : .respond(status: 404)
        }
        let inflated = await g.get(g.target("rs:fit:16:16", "/g.png", ext: "png"))
        #expect(inflated.status == 200 && (try? ImageInfo(probing: inflated.body).width) == 16)
        try await g.finish()
    }
}
