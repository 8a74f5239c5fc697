import Testing

@testable import Magpie

/// The effect processors' identifiers: every pixel-changing parameter named.
extension ProcessorIdentifierTests {
    static let mark = try! Image(
        width: 6, height: 4, rgba: Fixture.gradient(width: 6, height: 4) { x, _ in UInt8(x * 40) })
    static let otherMark = try! Image(width: 6, height: 4, rgba: Fixture.gradient(width: 6, height: 4))

    /// Each differs from every other in exactly the parameters it names.
    static var effects: [(String, any ImageProcessor)] {
        var all: [(String, any ImageProcessor)] = []
        for sigma in [0.5, 1.0, 2.5] { all.append(("blur \(sigma)", BlurProcessor(sigma: sigma))) }
        for s in [
            Sharpening(), Sharpening(sigma: 2), Sharpening(amount: 2), Sharpening(threshold: 10),
            Sharpening(maxBrighten: 10), Sharpening(maxDarken: 10), .afterResize,
        ] {
            all.append(("sharpen \(s)", SharpenProcessor(s)))
        }
        for o in Orientation.allCases where o != .up { all.append(("orient \(o)", TransformProcessor(o))) }
        for r in [RoundCornerProcessor.Radius.pixels(4), .pixels(7), .fraction(0.25), .circle] {
            all.append(("corners \(r)", RoundCornerProcessor(radius: r)))
            all.append(("corners \(r) border", RoundCornerProcessor(radius: r, borderWidth: 2)))
        }
        all.append(("corners top", RoundCornerProcessor(radius: .pixels(4), corners: [.topLeft, .topRight])))
        all.append(
            (
                "corners red border",
                RoundCornerProcessor(
                    radius: .pixels(4), borderWidth: 2, borderColor: Color(red: 255, green: 0, blue: 0))
            ))
        for a in [
            ColorAdjustment(saturation: 0), ColorAdjustment(saturation: 1.5), ColorAdjustment(contrast: 1.4),
            ColorAdjustment(brightness: 30), ColorAdjustment(tint: Color(red: 0, green: 0, blue: 255), tintAmount: 0.3),
            ColorAdjustment(tint: Color(red: 0, green: 255, blue: 0), tintAmount: 0.3),
            ColorAdjustment(tint: Color(red: 0, green: 255, blue: 0), tintAmount: 0.6),
        ] {
            all.append(("color \(a)", ColorProcessor(a)))
        }
        all.append(("pad", PaddingProcessor(top: 1, right: 2, bottom: 3, left: 4)))
        all.append(("pad other", PaddingProcessor(top: 4, right: 3, bottom: 2, left: 1)))
        all.append(("pad white", PaddingProcessor(top: 1, right: 2, bottom: 3, left: 4, color: .white)))
        all.append(("background white", BackgroundProcessor(.white)))
        all.append(("background red", BackgroundProcessor(Color(red: 255, green: 0, blue: 0))))
        all.append(("overlay", OverlayProcessor(mark)))
        all.append(("overlay other image", OverlayProcessor(otherMark)))
        all.append(("overlay centre", OverlayProcessor(mark, anchor: .center)))
        all.append(("overlay offset x", OverlayProcessor(mark, offsetX: 3)))
        all.append(("overlay offset y", OverlayProcessor(mark, offsetY: 3)))
        all.append(("overlay opacity", OverlayProcessor(mark, opacity: 0.5)))
        all.append(("overlay scale", OverlayProcessor(mark, scale: 0.5)))
        let shrink = DownsamplingProcessor(width: 30, height: 30)
        all.append(("shrink sharpened", DownsamplingProcessor(width: 30, height: 30, sharpening: .afterResize)))
        all.append(("resize sharpened", ResizingProcessor(width: 30, height: 30, sharpening: .afterResize)))
        all.append(("shrink turned", DownsamplingProcessor(width: 30, height: 30, transform: .right)))
        all.append(("blur |> gray", BlurProcessor(sigma: 1) |> ColorProcessor.grayscale))
        all.append(("gray |> round", ColorProcessor.grayscale |> RoundCornerProcessor(radius: .pixels(5))))
        all.append(("round |> gray", RoundCornerProcessor(radius: .pixels(5)) |> ColorProcessor.grayscale))
        all.append(("shrink |> rotate", shrink |> TransformProcessor(.left)))
        return all
    }

    @Test func effectSettingsThatShareAnIdentifierMakeTheSamePixels() throws {
        let source = try Image(
            width: 40, height: 30, rgba: Fixture.gradient(width: 40, height: 30) { x, y in UInt8((x * y) % 256) })
        let png = try source.encoded(as: .png())
        var seen: [String: (name: String, image: Image)] = [:]
        for (name, processor) in Self.effects {
            let made = try processor.process(.data(png), firstFrameOnly: false)
            if let earlier = seen[processor.identifier] {
                Issue.record("\(earlier.name) and \(name) share \(processor.identifier)")
            }
            seen[processor.identifier] = (name, made)
            #expect(!processor.identifier.isEmpty, "\(name) names itself")
        }
        #expect(seen.count == Self.effects.count)
    }

    /// Identifiers on disk (see `identifiersAreStableAcrossRuns`).
    @Test func effectIdentifiersAreStableAcrossRuns() {
        #expect(BlurProcessor(sigma: 5).identifier == "magpie.blur(5.0)")
        #expect(SharpenProcessor(.afterResize).identifier == "magpie.sharpen(0.5,3.0,5.0,25.0,51.0)")
        #expect(TransformProcessor(rotatingClockwise: 90)?.identifier == "magpie.orient(6)")
        #expect(TransformProcessor(rotatingClockwise: 90, flipHorizontally: true)?.identifier == "magpie.orient(5)")
        #expect(TransformProcessor(.up).identifier == "")
        #expect(RoundCornerProcessor.circle(borderWidth: 2).identifier == "magpie.corners(circle,border:2.0,000000ff)")
        #expect(ColorProcessor.grayscale.identifier == "magpie.color(0.0,1.0,0.0)")
        #expect(ColorProcessor(ColorAdjustment()).identifier == "")
        #expect(PaddingProcessor(top: 1, right: 2, bottom: 3, left: 4).identifier == "magpie.pad(1,2,3,4,00000000)")
        #expect(BackgroundProcessor(.white).identifier == "magpie.background(ffffff)")
        #expect(
            DownsamplingProcessor(width: 8, height: 9, transform: .left).identifier
                == "magpie.downsample(fit,8x9,orient:8)")
        #expect(OverlayProcessor(Self.mark).identifier.hasPrefix("magpie.overlay(6x4:"))
    }
}
