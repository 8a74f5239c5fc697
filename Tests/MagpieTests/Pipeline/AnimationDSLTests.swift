import Foundation
import MagpieTestSupport
import Testing

@testable import Magpie
@testable import MagpieImage

/// Animations through the `make` DSL, the pipeline's processors and the CLI.
@Suite struct AnimationDSLTests {
    @Test func theDSLLimitsKeepsOrEncodesFrames() throws {
        let bytes = try AnimationTests.animation(.webpLossless(), count: 8)
        // The first five frames, each resized, the rest never decoded.
        let limited = try ImageOptions.make { make in
            make.size.lessThanOrEqualTo(30)
            make.animation.maxFrames(5)
        }
        #expect(limited.processorIdentifier == "magpie.frames(max5)|>magpie.downsample(fit,30x30)")
        let five = try limited.processor.process(.data(bytes), firstFrameOnly: false)
        #expect(five.frames.count == 5 && five.width == 30 && five.height == 20 && five.loopCount == 0)
        let whole = try Image(decoding: bytes, options: DecodingOptions(resize: .fit(width: 30, height: 30)))
        #expect(five.frames == Array(whole.frames.prefix(5)), "the same frames as the whole decode's first five")
        // Encoded as the frames come.
        let encoded = try ImageOptions.make { make in
            make.size.lessThanOrEqualTo(30)
            make.animation.encoded(as: .webp(quality: 70)).maxFrames(3)
        }
        let poster = try encoded.processor.process(.data(bytes), firstFrameOnly: false)
        let animation = try #require(poster.animation)
        let decoded = try Image(decoding: animation.data)
        #expect(animation.frameCount == 3 && decoded.frames.count == 3)
        // The first frame alone contradicts both; nonsense is refused before anything runs.
        #expect(throws: ImageOptionsError.self) {
            try ImageOptions.make { make in make.animation.firstFrameOnly().maxFrames(3) }
        }
        #expect(throws: ImageOptionsError.self) { try ImageOptions.make { make in make.animation.maxFrames(0) } }
        #expect(throws: ImageOptionsError.self) {
            try ImageOptions.make { make in make.animation.encoded(as: .jpeg()) }
        }
        #expect(throws: ImageOptionsError.self) {
            try ImageOptions.make { make in
                make.animation.maxFrames(2)
                make.animation.maxFrames(3)
            }
        }
        #expect(try ImageOptions.make { make in make.animation.firstFrameOnly() }.onlyLoadFirstFrame)
    }

    @Test func theCLIKeepsAnimationsUnlessAskedForTheFirstFrame() throws {
        let dir = try TemporaryDirectory()
        let input = dir.path("in.webp")
        try Data(try AnimationTests.animation(.webpLossless(), count: 6)).write(to: URL(fileURLWithPath: input))
        var outputs = ["thumb.webp"]
        if EncodingFormat.gif().animates { outputs.append("thumb.gif") }
        for name in outputs {
            let r = try CLI.run(["thumb", input, "-s", "30", "-o", dir.path(name)])
            #expect(r.status == 0, "\(r.stderr)")
            let image = try Image(contentsOfFile: dir.path(name))
            #expect(image.frames.count == 6 && image.width == 30 && image.loopCount == 0, "\(name)")
        }
        let still = try CLI.run(["thumb", input, "-s", "30", "--first-frame", "-o", dir.path("first.webp")])
        #expect(still.status == 0)
        #expect(try Image(contentsOfFile: dir.path("first.webp")).frames.count == 1)
        let converted = try CLI.run(["convert", input, "--rotate", "90", "-o", dir.path("turned.webp")])
        #expect(converted.status == 0, "\(converted.stderr)")
        let turned = try Image(contentsOfFile: dir.path("turned.webp"))
        #expect(turned.frames.count == 6 && turned.width == 40 && turned.height == 60)
        let one = try CLI.run(["convert", input, "--frame", "2", "-o", dir.path("two.png")])
        #expect(one.status == 0)
        #expect(try Image(contentsOfFile: dir.path("two.png")).frames.count == 1)
    }
}
