import Testing

@testable import Magpie

/// `make.effects`: the processors in the order written, after the size; bad values are errors
/// naming their line, before anything is fetched.
extension OptionsDSLTests {
    @Test func effectsChainAfterTheSizeInTheOrderWritten() throws {
        let options = try ImageOptions.make { make in
            make.size.lessThanOrEqualTo(64)
            make.effects.rotate(degrees: 90).then.blur(sigma: 2).and.grayscale()
            make.effects.roundCorners(radius: 8, borderWidth: 1, borderColor: .white)
        }
        #expect(
            options.processorIdentifier
                == "magpie.downsample(fit,64x64)|>magpie.orient(6)|>magpie.blur(2.0)|>magpie.color(0.0,1.0,0.0)"
                + "|>magpie.corners(8.0,border:1.0,ffffffff)")
        let swapped = try ImageOptions.make { make in
            make.effects.grayscale().then.blur(sigma: 2)
        }
        #expect(swapped.processorIdentifier == "magpie.color(0.0,1.0,0.0)|>magpie.blur(2.0)")
    }

    @Test func aRotationAfterTheSizeDecodesOnce() throws {
        let jpeg = try Image(width: 90, height: 60, rgba: Fixture.gradient(width: 90, height: 60)).encoded(as: .jpeg())
        let options = try ImageOptions.make { make in
            make.size.lessThanOrEqualTo(width: 30, height: 20)
            make.effects.rotate(degrees: -90).flip(vertical: true)
        }
        let made = try options.processor.process(.data(jpeg), firstFrameOnly: true)
        let once = try DownsamplingProcessor(width: 30, height: 20, transform: Orientation.left.then(.downMirrored))
            .process(.data(jpeg), firstFrameOnly: true)
        #expect(made.width == 20 && made.height == 30 && made == once)
    }

    @Test func aSizeCanBeSharpenedAfterTheDownscaleOnce() throws {
        let options = try ImageOptions.make { make in make.size.lessThanOrEqualTo(64).sharpened() }
        #expect(options.processorIdentifier == "magpie.downsample(fit,64x64,sharpen:0.5,3.0,5.0,25.0,51.0)")
        let plain = try ImageOptions.make { make in make.size.lessThanOrEqualTo(64) }
        #expect(plain.processorIdentifier == "magpie.downsample(fit,64x64)", "off by default")
        let twice = optionsError { make in make.size.lessThanOrEqualTo(64).sharpened().sharpened(Sharpening()) }
        guard case .redefined(let what, _, _) = twice else {
            Issue.record("sharpened twice built")
            return
        }
        #expect(what == "size.lessThanOrEqualTo.sharpened")
    }

    @Test func effectValuesOutOfRangeAreErrorsAtTheirLine() {
        let cases: [(Int, (ImageOptionsMaker) -> Void)] = [
            (#line, { $0.effects.blur(sigma: .nan) }),
            (#line, { $0.effects.blur(sigma: 1000) }),
            (#line, { $0.effects.sharpen(Sharpening(amount: -1)) }),
            (#line, { $0.effects.rotate(degrees: 45) }),
            (#line, { $0.effects.flip() }),
            (#line, { $0.effects.roundCorners(radius: .infinity) }),
            (#line, { $0.effects.circle(borderWidth: -2) }),
            (#line, { $0.effects.color(saturation: 11) }),
            (#line, { $0.effects.tint(.white, amount: 2) }),
            (#line, { $0.effects.padding(top: -1, right: 0, bottom: 0, left: 0) }),
            (#line, { $0.effects.overlay(OverlayProcessor(ProcessorIdentifierTests.mark, opacity: 3)) }),
        ]
        for (line, configure) in cases {
            guard case .invalid(let what, let at) = optionsError(configure) else {
                Issue.record("line \(line) built")
                continue
            }
            #expect(at.line == line && what.hasPrefix("effects."), "\(what) at \(at)")
        }
    }
}
