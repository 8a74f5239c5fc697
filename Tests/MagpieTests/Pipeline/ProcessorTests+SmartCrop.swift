import MagpieTestSupport
import Testing

@testable import Magpie

/// Smart crop (``CropAnchor/smart``), focus points and shifted anchors in the library: the
/// processors, the DSL's `size.fill(…, anchor:)`, and anchors turned with an orientation.
extension ProcessorTests {
    /// 120×80 of flat grey with a saturated red disc of radius 10 about (`cx`, 40).
    func disc(at cx: Int) throws -> Image {
        var rgba = [UInt8](repeating: 128, count: 120 * 80 * 4)
        for y in 0..<80 {
            for x in 0..<120 {
                let i = (y * 120 + x) * 4
                rgba[i + 3] = 255
                if (x - cx) * (x - cx) + (y - 40) * (y - 40) <= 100 {
                    (rgba[i], rgba[i + 1], rgba[i + 2]) = (230, 20, 30)
                }
            }
        }
        return try Image(width: 120, height: 80, rgba: rgba)
    }

    func redPixels(_ image: Image) -> Int {
        stride(from: 0, to: image.pixels.count, by: 4).filter { image.pixels[$0] > 200 && image.pixels[$0 + 1] < 60 }
            .count
    }

    @Test func smartCropsKeepTheDiscWhereverItIs() throws {
        for cx in [14, 60, 105] {
            let picture = try disc(at: cx)
            let crop = try CroppingProcessor(width: 40, height: 80, anchor: .smart).process(
                .image(picture), firstFrameOnly: true)
            #expect(crop.width == 40 && redPixels(crop) >= 300, "disc at \(cx): \(redPixels(crop)) red pixels")
            let fill = try ResizingProcessor(width: 20, height: 40, mode: .fill, anchor: .smart).process(
                .image(picture), firstFrameOnly: true)
            #expect(fill.width == 20 && redPixels(fill) >= 60, "fill, disc at \(cx)")
        }
        // The centre keeps nothing of a disc at the edge; the identifier says smart.
        let edge = try disc(at: 105)
        #expect(
            redPixels(try CroppingProcessor(width: 40, height: 80).process(.image(edge), firstFrameOnly: true)) == 0)
        #expect(CroppingProcessor(width: 40, height: 80, anchor: .smart).identifier == "magpie.crop(40x80,smart)")
    }

    @Test func theDSLFillsWithASmartAnchorFromBytes() throws {
        let png = try disc(at: 105).encoded(as: .png())
        let options = try ImageOptions.make { make in make.size.fill(width: 30, height: 40, anchor: .smart) }
        #expect(options.processorIdentifier == "magpie.downsample(cover,30x40,up)|>magpie.crop(30x40,smart)")
        let out = try options.processor.process(.data(png), firstFrameOnly: true)
        #expect(out.width == 30 && out.height == 40 && redPixels(out) >= 60)
        let centre = try ImageOptions.make { make in make.size.fill(width: 30, height: 40) }
        #expect(redPixels(try centre.processor.process(.data(png), firstFrameOnly: true)) == 0)
        #expect(throws: ImageOptionsError.self) {
            try ImageOptions.make { make in make.width.fill(width: 3, height: 4) }
        }
    }

    @Test func focusPointsAndShiftsPlaceTheWindow() {
        let at = { (a: CropAnchor) in a.origin(imageWidth: 100, imageHeight: 50, width: 20, height: 10) }
        #expect(at(.focus(x: 0.5, y: 0.5)) == (40, 20))
        #expect(at(.focus(x: 0.1, y: 0.9)) == (0, 40))
        #expect(at(.focus(x: 1, y: 0)) == (80, 0))
        #expect(at(.left.shifted(x: 5, y: 0)) == (5, 20))
        #expect(at(.right.shifted(x: -5, y: 0)) == (75, 20))
        #expect(at(.center.shifted(x: 0.1, y: -0.2)) == (50, 10))
        #expect(at(.topLeft.shifted(x: 500, y: -500)) == (80, 0), "shifts stop at the edges")
        #expect(CropAnchor.smart.shifted(x: 5, y: 5) == .smart)
        #expect(at(.smart) == (40, 20), "from sizes alone, a smart anchor is the centre")
        // Turned back through an orientation, a shift turns with the anchor.
        let turned = CropAnchor.left.shifted(x: 5, y: 0).before(.right)
        #expect(turned.x == 0.5 && turned.y == 1 && turned.shiftX == 0 && turned.shiftY == -5)
        #expect(CropAnchor.focus(x: 0.2, y: 0.3).before(.upMirrored) == .focus(x: 0.8, y: 0.3))
        #expect(CropAnchor.smart.before(.left) == .smart)
    }
}
