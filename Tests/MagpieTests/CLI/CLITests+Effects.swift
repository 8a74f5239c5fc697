import Foundation
import Magpie
import MagpieTestSupport
import Testing

/// `thumb` and `convert` with the effect flags.
extension CLITests {
    @Test func thumbRotatesInTheDecodeAndAppliesEffectsInOrder() throws {
        let dir = try TemporaryDirectory()
        let f = try fixtures(dir)
        // The box is of the rotated image: 300 × 200 turned is 200 × 300, fitted into 60 × 90.
        let turned = try CLI.run(["thumb", f.jpeg, "-s", "60x90", "--rotate", "90", "-o", dir.path("r.png")])
        #expect(turned.status == 0, "\(turned.stderr)")
        let r = try Image(contentsOfFile: dir.path("r.png"))
        #expect(r.width == 60 && r.height == 90)
        let direct = try Image(
            contentsOfFile: f.jpeg, options: DecodingOptions(resize: .fit(width: 90, height: 60), frames: .single(0)))
        #expect(try r.pixels == direct.transformed(.right).pixels)
        // Round corners, then padding, then the background: padded corners are the background.
        let args = [
            "thumb", f.png, "-s", "64", "--round-corners", "10", "--pad", "2", "--background", "ff0000", "-o",
            dir.path("e.png"),
        ]
        let effects = try CLI.run(args)
        #expect(effects.status == 0, "\(effects.stderr)")
        let e = try Image(contentsOfFile: dir.path("e.png"))
        #expect(e.width == 68 && e.height == 47 && !e.hasAlpha)
        #expect(
            Array(e.pixels[0..<4]) == [255, 0, 0, 255]
                && Array(e.pixels[(2 * 68 + 2) * 4..<(2 * 68 + 3) * 4]) == [255, 0, 0, 255])
    }

    @Test func convertMakesACircleWithAWatermark() throws {
        let dir = try TemporaryDirectory()
        let f = try fixtures(dir)
        let mark = dir.path("mark.png")
        let red = try Image(width: 10, height: 10, rgba: Array(repeating: [255, 0, 0, 255], count: 100).flatMap { $0 })
        try Data(try red.encoded(as: .png())).write(to: URL(fileURLWithPath: mark))
        let result = try CLI.run([
            "convert", f.png, "-o", dir.path("c.png"), "--circle", "--grayscale", "--watermark", mark,
            "--watermark-gravity", "ce",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let c = try Image(contentsOfFile: dir.path("c.png"))
        #expect(c.width == 200 && c.height == 200 && c.pixels[3] == 0)
        let centre = (100 * 200 + 100) * 4
        #expect(Array(c.pixels[centre..<centre + 4]) == [255, 0, 0, 255], "the watermark comes after the grayscale")
    }

    @Test func badEffectFlagsAreRefusedBeforeAnythingIsWritten() throws {
        let dir = try TemporaryDirectory()
        let f = try fixtures(dir)
        for flags in [
            ["--blur", "nan"], ["--blur", "-1"], ["--rotate", "45"], ["--flip", "x"], ["--sharpen", "1,x"],
            ["--tint", "zz"], ["--pad", "1,2"], ["--border", "2,red"],
            ["--watermark-opacity", "2", "--watermark", f.png],
            ["--saturation", "11"], ["--watermark-gravity", "up", "--watermark", f.png],
        ] {
            let result = try CLI.run(["thumb", f.jpeg, "-s", "64", "-o", dir.path("never.png")] + flags)
            #expect(result.status != 0 && !result.stderr.isEmpty, "\(flags)")
        }
        let missing = try CLI.run([
            "thumb", f.jpeg, "-s", "64", "--watermark", dir.path("no.png"), "-o", dir.path("never.png"),
        ])
        #expect(missing.status == 1 && missing.stderr.hasPrefix("magpie: \(dir.path("no.png")): "))
        #expect(!FileManager.default.fileExists(atPath: dir.path("never.png")))
    }
}
