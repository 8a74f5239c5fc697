import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie
@testable import MagpieImage
@testable import MagpieServer

/// `IMGPROXY_USE_LINEAR_COLORSPACE` through the service: a fine black-and-white pattern shrunk in
/// linear light is half the light (sRGB 188), in sRGB the average of its bytes (128); each is a
/// variant of its own, and the library's processors say so in their identifiers.
extension ImageServiceTests {
    static let checker: [UInt8] = {
        var rgba = [UInt8](repeating: 255, count: 64 * 64 * 4)
        for y in 0..<64 {
            for x in 0..<64 where (x ^ y) & 1 == 0 {
                rgba.replaceSubrange((y * 64 + x) * 4..<(y * 64 + x) * 4 + 3, with: [0, 0, 0])
            }
        }
        return (try? Image(width: 64, height: 64, rgba: rgba).encoded(as: .png())) ?? []
    }()

    @Test func linearLightKeepsAFinePatternsBrightness() async throws {
        let origin: LoopbackServer.Handler = { _ in .ok(Self.checker, contentType: "image/png") }
        for (linear, expected) in [(false, 126...129), (true, 186...189)] {
            let h = try await Self.harness(origin) { $0.linearLight = linear }
            let r = await h.get(h.target("rs:fit:8:8", "/checker.png"))
            #expect(r.status == 200)
            let image = try Image(decoding: r.body)
            let greens = stride(from: 1, to: image.frames[0].pixels.count, by: 4).map {
                Int(image.frames[0].pixels[$0])
            }
            #expect(
                image.width == 8 && greens.allSatisfy { expected.contains($0) }, "linear \(linear): \(greens.prefix(4))"
            )
            try await h.finish()
        }
        var processor = DownsamplingProcessor(width: 8, height: 8)
        let plain = processor.identifier
        processor.linearLight = true
        #expect(processor.identifier != plain && processor.identifier.contains(",linear"))
        var resizing = ResizingProcessor(width: 8, height: 8)
        let srgb = try resizing.process(.data(Self.checker), firstFrameOnly: true)
        resizing.linearLight = true
        let lin = try resizing.process(.data(Self.checker), firstFrameOnly: true)
        #expect(srgb.frames[0].pixels[1] < 130 && lin.frames[0].pixels[1] > 185, "pixels already decoded, too")
    }
}
