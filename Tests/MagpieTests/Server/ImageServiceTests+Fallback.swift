import Foundation
import MagpieLoopback
import MagpieTestSupport
import Synchronization
import Testing

@testable import Magpie
@testable import MagpieServer

/// The fallback image (imgproxy's `IMGPROXY_FALLBACK_IMAGE_*`): processed with the request's
/// options, answered with the status asked (200 by default) and never stored as the source's.
extension ImageServiceTests {
    static func fallbackBytes() throws -> [UInt8] {
        let red = Array(repeating: [UInt8]([255, 0, 0, 255]), count: 80 * 40).flatMap { $0 }
        return try Image(width: 80, height: 40, rgba: red).encoded(as: .png())
    }

    @Test func aMissingSourceIsAnsweredWithTheFallbackAtTheAskedSize() async throws {
        let present = Mutex(false)
        let h = try await Self.harness(
            { request in
                present.withLock { $0 } ? .ok(NetFixture.jpeg, contentType: "image/jpeg") : .respond(status: 404)
            }, { $0.fallback = FallbackImage(bytes: try! Self.fallbackBytes(), ttl: 60) },
            download: { $0.failedURLTTL = nil })
        let target = h.target("rs:fit:20:20", "/a.jpg", ext: "png")
        let r = await h.get(target)
        #expect(r.status == 200 && r.header("X-Magpie-Cache") == "fallback" && r.header("Content-Type") == "image/png")
        #expect(r.header("Cache-Control") == "public, max-age=60" && r.header("Last-Modified") == nil)
        let image = try Image(decoding: r.body)
        #expect(image.width == 20 && image.height == 10, "the fallback's 80×40, fit into 20×20")
        #expect(image.pixels[0] > 200 && image.pixels[1] < 50, "red: the fallback's pixels")
        // The source appears (the downloader remembers no failure here): its own variant is
        // made, the fallback was never stored as it.
        present.withLock { $0 = true }
        let real = await h.get(target)
        #expect(real.status == 200 && real.header("X-Magpie-Cache") != "fallback")
        #expect(try Image(decoding: real.body).width == 20 && (try Image(decoding: real.body)).height == 13)
        // Refusals before any fetch get no fallback.
        #expect(await h.get("/bad-signature/w:20/plain/\(h.url("/none.jpg"))").status == 403)
        #expect(await h.get(h.target("w:99999", "/none.jpg")).status == 400)
        try await h.finish()
    }

    @Test func theFallbacksStatusIsTheOneAskedOrTheFailuresOwn() async throws {
        for (status, expected) in [(0, 404), (500, 500), (200, 200)] {
            let h = try await Self.harness(Self.images) {
                $0.fallback = FallbackImage(bytes: try! Self.fallbackBytes(), status: status)
            }
            let r = await h.get(h.target("w:16", "/none.jpg"))
            #expect(r.status == expected && (try? Image(decoding: r.body))?.width == 16, "status \(status)")
            #expect((r.header("ETag") != nil) == (expected == 200), "an ETag only on a 200")
            #expect(r.header("Cache-Control") == "public, max-age=31536000", "TTL 0: the usual")
            try await h.finish()
        }
    }
}

/// The server's watermark opacity (`IMGPROXY_WATERMARK_OPACITY`) is the base a URL's `wm`
/// opacity multiplies.
extension ImageServiceTests {
    @Test func theWatermarksOpacityIsTheBaseAURLsMultiplies() async throws {
        let mark = try Image(width: 8, height: 8, rgba: Array(repeating: [255, 0, 0, 255], count: 64).flatMap { $0 })
        let half = try await Self.harness(Self.images) { $0.watermark = OverlayProcessor(mark, opacity: 0.5) }
        let full = try await Self.harness(Self.images) { $0.watermark = OverlayProcessor(mark) }
        let a = await half.get(half.target("rs:fit:48:48/wm:1:nowe", "/a.jpg", ext: "png"))
        let b = await full.get(full.target("rs:fit:48:48/wm:0.5:nowe", "/a.jpg", ext: "png"))
        let c = await full.get(full.target("rs:fit:48:48/wm:1:nowe", "/a.jpg", ext: "png"))
        #expect(a.status == 200 && a.body == b.body, "0.5 × 1 is 1 × 0.5")
        #expect(a.body != c.body)
        try await half.finish()
        try await full.finish()
    }
}
