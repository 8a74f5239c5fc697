import Foundation
import MagpieLoopback
import Testing

@testable import Magpie
@testable import MagpieServer

/// Progressive JPEG through the service: imgproxy's `IMGPROXY_JPEG_PROGRESSIVE` (off by default,
/// as imgproxy's), thumbor's `PROGRESSIVE_JPEG` (on by default, as thumbor's) and
/// `PNG_COMPRESSION_LEVEL`; each a variant of its own.
extension ImageServiceTests {
    @Test func jpegResultsAreProgressiveWhereTheServerSaysSo() async throws {
        for progressive in [false, true] {
            let h = try await Self.harness(Self.images) { $0.jpegProgressive = progressive }
            let r = await h.get(h.target("rs:fit:48:48", "/a.jpg"))
            #expect(r.status == 200 && r.header("Content-Type") == "image/jpeg")
            #expect(
                ImageFormatNamesTests.jpegFrame(r.body).0 == (progressive ? 0xC2 : 0xC0), "progressive: \(progressive)")
            try await h.finish()
        }
    }

    @Test func thumborsJPEGsAreProgressiveAndItsPNGLevelHolds() async throws {
        var sizes: [Int: Int] = [:]
        for (progressive, level) in [(true, 6), (false, 0), (true, 9)] {
            let h = try await Self.harness(Self.images) {
                var t = Self.servedSettings
                (t.progressiveJPEG, t.pngCompressionLevel) = (progressive, level)
                $0.thumbor = t
            }
            let host = "127.0.0.2:\(h.origin.port)"
            let jpeg = await h.get(Self.thumborTarget("/unsafe/48x32/HOST/a.jpg", host: host))
            #expect(ImageFormatNamesTests.jpegFrame(jpeg.body).0 == (progressive ? 0xC2 : 0xC0), "\(progressive)")
            let png = await h.get(Self.thumborTarget("/unsafe/48x32/filters:format(png)/HOST/a.jpg", host: host))
            #expect(png.status == 200 && png.header("Content-Type") == "image/png")
            sizes[level] = png.body.count
            try await h.finish()
        }
        #expect(sizes[0]! > sizes[6]! && sizes[6]! >= sizes[9]!, "zlib's levels: \(sizes)")
    }
}
