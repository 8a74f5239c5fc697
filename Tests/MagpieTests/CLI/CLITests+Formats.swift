import Foundation
import Magpie
import MagpieTestSupport
import Testing

extension CLITests {
    /// BMP, ICO, TIFF, HEIC and JPEG XL through `info`, `thumb` and `convert`, as JPEG and PNG go.
    @Test func theOtherFormatsThroughTheCommands() throws {
        let dir = try TemporaryDirectory()
        let files = ["bmp-rle4.bmp", "ico-png.ico", "tiff-orient6.tif", "heic-alpha.heic", "jxl-animated.jxl"].map(
            FormatFixtures.path)
        let info = try CLI.run(["info", "--json"] + files)
        #expect(info.status == 0, "\(info.stderr)")
        let objects = try info.stdout.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(objects.map { $0?["format"] as? String } == ["bmp", "ico", "tiff", "heic", "jxl"])
        #expect(objects[1]?["width"] as? Int == 64 && objects[1]?["height"] as? Int == 40, "the icon's largest entry")
        #expect(objects[2]?["orientation"] as? Int == 6)
        // The TIFF's orientation tag turns the thumbnail upright, as an EXIF one does.
        let thumb = try CLI.run(["thumb", files[2], "-s", "20", "-o", dir.path("t.webp")])
        #expect(thumb.status == 0, "\(thumb.stderr)")
        let written = try ImageInfo(contentsOfFile: dir.path("t.webp"))
        #expect(written.format == .webp && written.width == 12 && written.height == 20, "23x37 upright")
        // Converted whole, the pixels are the reference decode's.
        let convert = try CLI.run(["convert", files[0], "-o", dir.path("r.png")])
        #expect(convert.status == 0, "\(convert.stderr)")
        let mine = try Image(contentsOfFile: dir.path("r.png"))
        let reference = try Image(contentsOfFile: FormatFixtures.path("bmp-rle4.ref.png"))
        #expect(mine.width == 37 && mine.pixels == reference.pixels)
        let heic = try CLI.run(["thumb", files[3], "-s", "16", "-o", dir.path("h.png")])
        #expect(heic.status == 0, "\(heic.stderr)")
        #expect(try ImageInfo(contentsOfFile: dir.path("h.png")).hasAlpha)
    }
}
