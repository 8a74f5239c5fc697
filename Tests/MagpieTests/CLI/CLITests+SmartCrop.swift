import Foundation
import Magpie
import MagpieTestSupport
import Testing

/// `thumb --fill --smart`: the window with the most attention rather than the centre.
extension CLITests {
    @Test func thumbFillSmartKeepsWhatStandsOut() throws {
        let dir = try TemporaryDirectory()
        // 400×200 of grey with a saturated red disc near the left edge, as a JPEG.
        var rgba = [UInt8](repeating: 120, count: 400 * 200 * 4)
        for y in 0..<200 {
            for x in 0..<400 {
                let i = (y * 400 + x) * 4
                rgba[i + 3] = 255
                if (x - 50) * (x - 50) + (y - 100) * (y - 100) <= 900 {
                    (rgba[i], rgba[i + 1], rgba[i + 2]) = (230, 20, 30)
                }
            }
        }
        let source = dir.path("disc.jpg")
        try Data(try Image(width: 400, height: 200, rgba: rgba).encoded(as: .jpeg(quality: 90)))
            .write(to: URL(fileURLWithPath: source))
        func red(_ path: String) throws -> Int {
            let image = try Image(contentsOfFile: path)
            #expect(image.width == 100 && image.height == 100)
            return stride(from: 0, to: image.pixels.count, by: 4).filter {
                image.pixels[$0] > 180 && image.pixels[$0 + 1] < 80
            }.count
        }
        let smart = try CLI.run(["thumb", source, "-s", "100", "--fill", "--smart", "-o", dir.path("s.png")])
        #expect(smart.status == 0, "\(smart.stderr)")
        let centre = try CLI.run(["thumb", source, "-s", "100", "--fill", "-o", dir.path("c.png")])
        #expect(centre.status == 0, "\(centre.stderr)")
        let kept = try red(dir.path("s.png"))
        #expect(kept > 500, "\(kept) red pixels: the disc (about 700 at half size) is kept")
        #expect(try red(dir.path("c.png")) == 0)
        let alone = try CLI.run(["thumb", source, "-s", "100", "--smart", "-o", dir.path("x.png")])
        #expect(alone.status != 0 && alone.stderr.contains("--smart needs --fill"))
    }
}
