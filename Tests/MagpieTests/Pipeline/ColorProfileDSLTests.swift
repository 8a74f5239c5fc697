import Foundation
import MagpieTestSupport
import Testing

@testable import Magpie

/// Keeping a colour profile through the `make` DSL (its own cache identity) and the CLI.
@Suite struct ColorProfileDSLTests {
    @Test func theDSLKeepsAProfileUnderItsOwnIdentity() throws {
        // On either side of a width-and-height pair, the modifier belongs to the one size.
        let keeps = try [
            ImageOptions.make { make in make.size.lessThanOrEqualTo(64).keepingColorProfile() },
            ImageOptions.make { make in
                make.height.lessThanOrEqualTo(64)
                make.width.lessThanOrEqualTo(64).keepingColorProfile()
            },
        ]
        #expect(keeps.allSatisfy { $0.processorIdentifier == "magpie.downsample(fit,64x64,kcp)" })
        #expect(
            try ImageOptions.make { make in make.size.lessThanOrEqualTo(64) }.processorIdentifier.hasSuffix("64x64)"))
        let image = try keeps[0].processor.process(.data(try ColorProfileTests.taggedJPEG()), firstFrameOnly: true)
        #expect(image.colorProfileHandling == .kept && image.colorProfile != nil)
    }

    @Test func theCLIKeepsAProfileWhenAsked() throws {
        let out = try TemporaryDirectory()
        let input = out.path("tagged.jpg")
        try Data(try ColorProfileTests.taggedJPEG()).write(to: URL(fileURLWithPath: input))
        for (name, extra) in [("plain.png", [String]()), ("kept.png", ["--keep-profile"])] {
            let r = try CLI.run(["thumb", input, "-s", "64", "-o", out.path(name)] + extra)
            #expect(r.status == 0, "\(r.stderr)")
        }
        let plain = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out.path("plain.png"))))
        let kept = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out.path("kept.png"))))
        #expect(!ColorProfileTests.contains(plain, "iCCP") && ColorProfileTests.contains(kept, "iCCP"))
    }
}
