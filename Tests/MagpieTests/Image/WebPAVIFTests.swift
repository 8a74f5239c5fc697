import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie

/// WebP and AVIF through the Swift API: what the build decodes and advertises, WebP encoding,
/// and both formats through the pipeline over loopback HTTP.
@Suite struct WebPAVIFTests {
    @Test func theBuildDecodesAndAdvertisesBothFormats() {
        #expect(ImageFormat.webp.isDecodable && ImageFormat.avif.isDecodable)
        #expect(ImageFormat.webp.isEncodable && ImageFormat.avif.isEncodable && !ImageFormat.bmp.isEncodable)
        #expect(!ImageFormat.pdf.isDecodable && !ImageFormat.unknown.isDecodable)
        #expect(ImageFormat.decodable == [.avif, .webp, .png, .jpeg, .gif, .bmp, .tiff, .heic, .ico, .svg, .jxl])
        #expect(
            ImageDownloader.Config.acceptedMediaTypes
                == "image/avif,image/webp,image/png,image/jpeg,image/gif,image/bmp;q=0.5,image/tiff;q=0.5,"
                + "image/heic;q=0.5,image/vnd.microsoft.icon;q=0.5,image/svg+xml;q=0.5,image/jxl;q=0.5")
        let accept = ImageDownloader.Config().defaultHeaders.first { $0.name == "Accept" }?.value
        #expect(accept == ImageDownloader.Config.acceptedMediaTypes, "nothing it cannot read: no image/* or */*")
    }

    @Test func webpRoundTrips() throws {
        var pixels = Fixture.gradient(width: 120, height: 80)
        for i in stride(from: 3, to: pixels.count, by: 4) where (i / 4) % 120 < 10 { pixels[i] = 128 }
        let image = try Image(width: 120, height: 80, rgba: pixels)
        let lossless = try image.encoded(as: .webpLossless())
        #expect(ImageFormat(sniffing: lossless) == .webp && EncodingFormat.webpLossless().format == .webp)
        let back = try Image(decoding: lossless)
        #expect(back.width == 120 && back.height == 80 && back.pixels == pixels, "lossless keeps every pixel")
        #expect(try ImageInfo(probing: lossless).hasAlpha)
        let lossy = try image.encoded(as: .webp(quality: 90))
        #expect(try image.encoded(as: .webp(quality: 90)) == lossy, "deterministic")
        let decoded = try Image(decoding: lossy)
        let worst = zip(decoded.pixels, pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 24, "lossy at 90: worst sample error \(worst)")
        #expect(throws: ImageCodecError.self) { try image.encoded(as: .webp(quality: 0)) }
        #expect(throws: ImageCodecError.self) { try image.encoded(as: .webp(method: 9)) }
        let thumb = try Image(decoding: lossy, options: .thumbnail(30))
        #expect(thumb.width == 30 && thumb.height == 20 && thumb.sourceFormat == .webp)
    }

    @Test func webpAndAVIFComeThroughThePipeline() async throws {
        let webp = try Image(width: 200, height: 100, rgba: Fixture.gradient(width: 200, height: 100)).encoded(
            as: .webp())
        // An AVIF stored 37x23 with irot for orientation 6 (Tests/fixtures/formats/avif_orient.c);
        // the corpus's 1024x722 one too where it is present.
        let avif = Array(try FormatFixtures.bytes("avif-orient6.avif"))
        let corpusAVIF =
            Corpus.webpAvif.directory == nil ? nil : try Corpus.webpAvif.bytes("avif/link-u/kimono.rotate90.avif")
        let accepts = Recorder<String>()
        try await withServer({ request in
            accepts.add(request.header("Accept") ?? "")
            switch request.path {
            case "/a.webp": return .ok(webp, contentType: "image/webp")
            case "/a.avif": return .ok(avif, contentType: "image/avif")
            case "/b.avif": return .ok(corpusAVIF ?? [], contentType: "image/avif")
            default: return .respond(status: 404)
            }
        }) { server in
            let h = try PipelineHarness()
            var options = ImageOptions()
            options.processor = DownsamplingProcessor(width: 50, height: 50)
            let w = try await h.manager.retrieveImage(
                with: .network(NetFixture.url(server, "/a.webp")), options: options)
            #expect(w.image.width == 50 && w.image.height == 25 && w.image.sourceFormat == .webp)
            let a = try await h.manager.retrieveImage(
                with: .network(NetFixture.url(server, "/a.avif")), options: options)
            #expect(a.image.width == 23 && a.image.height == 37, "upright: irot turned 37x23 to portrait")
            #expect(a.image.sourceFormat == .avif)
            if corpusAVIF != nil {
                let b = try await h.manager.retrieveImage(
                    with: .network(NetFixture.url(server, "/b.avif")), options: options)
                #expect(b.image.width == 35 && b.image.height == 50, "upright: irot turned 1024x722 to portrait")
                #expect(b.image.sourceFormat == .avif)
            }
            #expect(!accepts.all.isEmpty && accepts.all.allSatisfy { $0 == ImageDownloader.Config.acceptedMediaTypes })
            try await h.finish()
        }
    }
}
