import MagpieTestSupport
import Testing

@testable import Magpie
@testable import MagpieServer

/// imgproxy's resizing types on a 96×64 source, through the library's processors.
@Suite struct VariantTests {
    let source = try! Image(width: 96, height: 64, rgba: Fixture.gradient(width: 96, height: 64))

    func size(_ options: [String]) throws -> (Int, Int) {
        let parsed = try ProcessingOptions.parse(options, presets: [:])
        let variant = Variant(
            parsed, format: "png", limits: .init(pixels: 1 << 30, frames: 1 << 20, framePixels: 1 << 40))
        let image = try variant.processor.process(.image(source), firstFrameOnly: true)
        return (image.width, image.height)
    }

    @Test(arguments: [
        (["rs:fit:48:48"], 48, 32), (["w:48"], 48, 32), (["h:32"], 48, 32), (["rs:fit:200:200"], 96, 64),
        (["rs:fit:192:0:1"], 192, 128), (["rs:force:30:30"], 30, 30), (["rs:fill:20:20"], 20, 20),
        (["rs:fill:200:200"], 96, 64), (["rs:fill:200:200:1"], 200, 200), (["rs:fill:100:40"], 96, 40),
        (["rs:fill-down:200:100"], 96, 48), (["rs:fill-down:40:80"], 32, 64), (["rs:fill-down:20:20"], 20, 20),
        (["rs:auto:50:20"], 50, 20), (["rs:auto:20:50"], 20, 13), (["s:24:24", "dpr:2"], 48, 32),
    ])
    func resizingTypesGiveImgproxysSizes(_ options: [String], _ width: Int, _ height: Int) throws {
        let (w, h) = try size(options)
        #expect(w == width && h == height, "\(options): \(w)×\(h)")
    }

    @Test func gravityPicksTheWindow() throws {
        let west = Variant(
            try ProcessingOptions.parse(["rs:fill:10:64", "g:we"], presets: [:]), format: "png",
            limits: .init(pixels: 1 << 30, frames: 1 << 20, framePixels: 1 << 40))
        let east = Variant(
            try ProcessingOptions.parse(["rs:fill:10:64", "g:ea"], presets: [:]), format: "png",
            limits: .init(pixels: 1 << 30, frames: 1 << 20, framePixels: 1 << 40))
        let a = try west.processor.process(.image(source), firstFrameOnly: true)
        let b = try east.processor.process(.image(source), firstFrameOnly: true)
        #expect(Array(a.pixels[0..<4]) == Array(source.pixels[0..<4]))
        #expect(Array(b.pixels[0..<4]) == Array(source.pixels[(86 * 4)..<(87 * 4)]))
        #expect(west.processor.identifier != east.processor.identifier)
    }

    /// `--fast` shrinks a large JPEG on load further (a smaller decode, same output size) and is a
    /// variant of its own, so the two never share a cache entry.
    @Test func fastDecodesAreTheirOwnVariant() throws {
        let big = try Image(width: 1600, height: 1200, rgba: Fixture.gradient(width: 1600, height: 1200))
            .encoded(as: .jpeg(quality: 90))
        let parsed = try ProcessingOptions.parse(["rs:fit:150:150"], presets: [:])
        var limits = Variant.SourceLimits(pixels: 1 << 30, frames: 1 << 20, framePixels: 1 << 40)
        let standard = Variant(parsed, format: "jpg", limits: limits)
        limits.quality = .fast
        let fast = Variant(parsed, format: "jpg", limits: limits)
        #expect(standard.processor.identifier != fast.processor.identifier)
        let a = try standard.processor.process(.data(big), firstFrameOnly: true)
        let b = try fast.processor.process(.data(big), firstFrameOnly: true)
        #expect(a.width == 150 && a.height == 113 && b.width == 150 && b.height == 113)
        #expect(a.pixels != b.pixels, "1600 px: 1/4 scale (400) for standard, 1/8 (200) for fast")
    }
}
