import Foundation
import Magpie
import MagpieTestSupport
import Testing

extension CLITests {
    /// The CLI reads WebP and AVIF (corpus files) as it reads the other formats.
    @Test(.enabled(if: Corpus.webpAvif.isAvailable)) func webpAndAVIFThroughTheCommands() throws {
        let dir = try TemporaryDirectory()
        let root = Corpus.webpAvif.directory!.path
        let avif = root + "/avif/link-u/kimono.rotate90.avif"
        let anim = root + "/webp/sharp/animated-loop-3.webp"
        let sequence = root + "/avif/link-u/star-8bpc-with-alpha.avifs"
        let info = try CLI.run(["info", "--json", avif, anim, sequence])
        #expect(info.status == 0, "\(info.stderr)")
        let objects = try info.stdout.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(objects.count == 3)
        #expect(objects[0]?["format"] as? String == "avif" && objects[0]?["orientation"] as? Int == 6)
        #expect(objects[0]?["width"] as? Int == 1024 && objects[0]?["height"] as? Int == 722)
        #expect(objects[1]?["format"] as? String == "webp" && objects[1]?["frames"] as? Int == 10)
        #expect(objects[2]?["format"] as? String == "avif" && objects[2]?["frames"] as? Int == 5)
        // An upright thumbnail of the turned AVIF, written as WebP.
        let thumb = try CLI.run(["thumb", avif, "-s", "100", "-o", dir.path("k.webp")])
        #expect(thumb.status == 0, "\(thumb.stderr)")
        let written = try ImageInfo(contentsOfFile: dir.path("k.webp"))
        #expect(written.format == .webp && written.width == 71 && written.height == 100)
        // One frame of each animation, composited.
        for (input, frame, out) in [(anim, "6", "f.png"), (sequence, "3", "s.png")] {
            let convert = try CLI.run(["convert", input, "--frame", frame, "-o", dir.path(out)])
            #expect(convert.status == 0, "\(convert.stderr)")
        }
        #expect(try ImageInfo(contentsOfFile: dir.path("f.png")).width == 370)
        #expect(try ImageInfo(contentsOfFile: dir.path("s.png")).hasAlpha)
    }
}
