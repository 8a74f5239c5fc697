import Foundation
import Magpie
import MagpieTestSupport
import Testing

/// The commands' encoder flags: JPEG XL by OUT's extension at a quality and an effort, PNG
/// palettes, WebP presets; out-of-range values refused before any work.
extension CLITests {
    @Test func encoderFlagsThroughTheCommands() throws {
        let dir = try TemporaryDirectory()
        let source = dir.path("in.png")
        let image = try Image(width: 90, height: 60, rgba: Fixture.gradient(width: 90, height: 60))
        try Data(image.encoded(as: .png())).write(to: URL(fileURLWithPath: source))
        if ImageFormat.jxl.isEncodable {
            for (quality, effort) in [("100", "1"), ("70", "7")] {
                let out = dir.path("q\(quality).jxl")
                let run = try CLI.run(["convert", source, "-o", out, "--quality", quality, "--jxl-effort", effort])
                #expect(run.status == 0, "\(run.stderr)")
                let back = try Image(contentsOfFile: out)
                #expect(try ImageInfo(contentsOfFile: out).format == .jxl)
                #expect(back.width == 90 && (quality != "100" || back.pixels == image.pixels), "q100 is lossless")
            }
            let thumb = try CLI.run(["thumb", source, "-s", "30", "-o", dir.path("t.jxl")])
            #expect(thumb.status == 0, "\(thumb.stderr)")
            #expect(try ImageInfo(contentsOfFile: dir.path("t.jxl")).width == 30)
        }
        if ImageFormat.palettesAvailable {
            let run = try CLI.run(["convert", source, "-o", dir.path("p.png"), "--png-colors", "4"])
            #expect(run.status == 0, "\(run.stderr)")
            let png = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir.path("p.png"))))
            #expect(png[25] == 3 && png[24] == 2, "a 2-bit palette")
        }
        let preset = try CLI.run(["convert", source, "-o", dir.path("d.webp"), "--webp-preset", "drawing"])
        #expect(preset.status == 0, "\(preset.stderr)")
        for bad in [["--jxl-effort", "0"], ["--webp-preset", "poster"], ["--png-colors", "1"], ["--quality", "0"]] {
            let run = try CLI.run(["convert", source, "-o", dir.path("x.jxl")] + bad)
            #expect(run.status != 0 && !FileManager.default.fileExists(atPath: dir.path("x.jxl")), "\(bad)")
        }
    }
}
