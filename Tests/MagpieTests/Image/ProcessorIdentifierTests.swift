import Testing

@testable import Magpie

/// Processor identifiers are cache keys: two settings that make different pixels must never
/// share one, and one setting must name itself the same way in every run.
@Suite struct ProcessorIdentifierTests {
    static let filters: [DecodingOptions.Filter] = [.lanczos3, .mitchell, .bilinear]
    static let modes: [ContentMode] = [.fit, .fill, .cover, .exact]
    static let anchors: [CropAnchor] = [.center, .top, .topLeft, .right, CropAnchor(x: 0.25, y: 0.75)]
    /// Smaller and larger than the 40 × 30 source, on either side, so upscaling matters.
    static let sizes: [(Int, Int)] = [(16, 12), (20, 8), (9, 25), (64, 48), (50, 20)]

    /// Every processor setting worth telling apart, with a readable name for failures.
    static var processors: [(String, any ImageProcessor)] {
        var all: [(String, any ImageProcessor)] = []
        for (w, h) in sizes {
            for mode in modes {
                for up in [false, true] {
                    for filter in filters {
                        all.append(
                            (
                                "downsample \(mode) \(w)x\(h) up:\(up) \(filter)",
                                DownsamplingProcessor(
                                    width: w, height: h, mode: mode, allowsUpscaling: up, filter: filter)
                            ))
                        for anchor in anchors {
                            all.append(
                                (
                                    "resize \(mode) \(w)x\(h) up:\(up) \(filter) \(anchor)",
                                    ResizingProcessor(
                                        width: w, height: h, mode: mode, anchor: anchor, allowsUpscaling: up,
                                        filter: filter)
                                ))
                        }
                    }
                }
            }
            for anchor in anchors {
                all.append(("crop \(w)x\(h) \(anchor)", CroppingProcessor(width: w, height: h, anchor: anchor)))
            }
        }
        let shrink = DownsamplingProcessor(width: 30, height: 30)
        all.append(("default", DefaultImageProcessor()))
        all.append(("default |> crop", DefaultImageProcessor() |> CroppingProcessor(width: 20, height: 20)))
        all.append(("shrink |> crop", shrink |> CroppingProcessor(width: 20, height: 20)))
        all.append(("crop |> shrink", CroppingProcessor(width: 20, height: 20) |> shrink))
        all.append(
            (
                "shrink |> resize bilinear",
                shrink |> ResizingProcessor(width: 12, height: 12, mode: .exact, filter: .bilinear)
            ))
        return all
    }

    @Test func settingsThatShareAnIdentifierMakeTheSamePixels() throws {
        let source = try Image(width: 40, height: 30, rgba: Fixture.gradient(width: 40, height: 30))
        let png = try source.encoded(as: .png())
        var seen: [String: (name: String, image: Image)] = [:]
        var distinct = 0
        for (name, processor) in Self.processors {
            let made = try processor.process(.data(png), firstFrameOnly: false)
            if let earlier = seen[processor.identifier] {
                #expect(
                    earlier.image.width == made.width && earlier.image.height == made.height
                        && earlier.image.pixels == made.pixels,
                    "\(earlier.name) and \(name) share \(processor.identifier) but differ")
            } else {
                seen[processor.identifier] = (name, made)
                distinct += 1
            }
        }
        // Every filter, mode, size and crop anchor is named: 5 sizes × (downsample 4 modes × 2 × 3
        // + resize (3 modes + fill × 5 anchors) × 2 × 3 + crop 5 anchors) + 5 chains.
        #expect(distinct == 5 * (24 + 48 + 5) + 5)
    }

    @Test func filtersAndAnchorsAreNamed() {
        let bilinear = ResizingProcessor(width: 10, height: 10, filter: .bilinear).identifier
        let lanczos = ResizingProcessor(width: 10, height: 10, filter: .lanczos3).identifier
        #expect(bilinear != lanczos)
        let topFill = ResizingProcessor(width: 10, height: 10, mode: .fill, anchor: .top).identifier
        #expect(topFill != ResizingProcessor(width: 10, height: 10, mode: .fill).identifier)
    }

    /// The identifiers on disk: changing one orphans every entry written under it, so these
    /// strings may only change with a note in the README.
    @Test func identifiersAreStableAcrossRuns() {
        #expect(ResizingProcessor(width: 64, height: 48).identifier == "magpie.resize(fit,64x48)")
        #expect(
            ResizingProcessor(
                width: 64, height: 48, mode: .fill, anchor: .top, allowsUpscaling: true, filter: .mitchell
            )
            .identifier == "magpie.resize(fill,64x48,up,anchor:0.5,0.0,mitchell)")
        #expect(
            DownsamplingProcessor(width: 8, height: 9, mode: .cover, filter: .bilinear).identifier
                == "magpie.downsample(cover,8x9,bilinear)")
        #expect(CroppingProcessor(width: 5, height: 6, anchor: .topLeft).identifier == "magpie.crop(5x6,0.0,0.0)")
    }
}
