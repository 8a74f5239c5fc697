import Foundation
import MagpieTestSupport
import Testing

@testable import Magpie

/// Keeping a colour profile through the `make` DSL (its own cache identity) and the CLI.
@Suite struct ColorProfileDSLTests {
    @Test func theDSLKeepsAProfileUnderItsOwnIdentity() throws {
        let keep = try ImageOptions.make { make in make.size.lessThanOrEqualTo(64).keepingColorProfile() }
        let plain = try ImageOptions.make { make in make.size.lessThanOrEqualTo(64) }
        #expect(keep.processorIdentifier == "magpie.downsample(fit,64x64,kcp)")
        #expect(plain.processorIdentifier == "magpie.downsample(fit,64x64)", "unchanged for existing entries")
        let both = try ImageOptions.make { make in
            make.width.lessThanOrEqualTo(64).keepingColorProfile()
            make.height.lessThanOrEqualTo(32)
        }
        #expect((both.processor as? DownsamplingProcessor)?.keepsColorProfile == true)
        let corpus = Corpus.Set("corpus")
        guard corpus.isAvailable else { return }
        let image = try keep.processor.process(.data(try corpus.bytes(ColorProfileTests.tagged)), firstFrameOnly: true)
        #expect(image.colorProfileHandling == .kept && image.colorProfile != nil)
    }

    @Test func theCLIKeepsAProfileWhenAsked() throws {
        let corpus = Corpus.Set("corpus")
        guard corpus.isAvailable, let dir = corpus.directory else { return }
        let input = dir.appendingPathComponent(ColorProfileTests.tagged).path
        let out = try TemporaryDirectory()
        for (name, extra) in [("plain.png", [String]()), ("kept.png", ["--keep-profile"])] {
            let r = try CLI.run(["thumb", input, "-s", "64", "-o", out.path(name)] + extra)
            #expect(r.status == 0, "\(r.stderr)")
        }
        let plain = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out.path("plain.png"))))
        let kept = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out.path("kept.png"))))
        #expect(!ColorProfileTests.contains(plain, "iCCP") && ColorProfileTests.contains(kept, "iCCP"))
    }
}
