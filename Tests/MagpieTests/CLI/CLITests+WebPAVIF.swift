import Foundation
import Magpie
import MagpieTestSupport
import Testing

extension CLITests {
    /// The CLI reads WebP and AVIF as it reads the other formats: an AVIF with irot
    /// (`Tests/fixtures/formats/avif-orient6.avif`, 37x23 stored) and an animated WebP made here;
    /// the corpus's AVIF sequence too where it is present.
    @Test func webpAndAVIFThroughTheCommands() throws {
        let dir = try TemporaryDirectory()
        let avif = FormatFixtures.path("avif-orient6.avif")
        let anim = dir.path("anim.webp")
        try Data(try AnimationTests.animation(.webpLossless(), count: 10)).write(to: URL(fileURLWithPath: anim))
        let info = try CLI.run(["info", "--json", avif, anim])
        #expect(info.status == 0, "\(info.stderr)")
        let objects = try info.stdout.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(objects.count == 2)
        #expect(objects[0]?["format"] as? String == "avif" && objects[0]?["orientation"] as? Int == 6)
        #expect(objects[0]?["width"] as? Int == 37 && objects[0]?["height"] as? Int == 23)
        #expect(objects[1]?["format"] as? String == "webp" && objects[1]?["frames"] as? Int == 10)
        // An upright thumbnail of the turned AVIF, written as WebP: portrait.
        let thumb = try CLI.run(["thumb", avif, "-s", "30", "-o", dir.path("k.webp")])
        #expect(thumb.status == 0, "\(thumb.stderr)")
        let written = try ImageInfo(contentsOfFile: dir.path("k.webp"))
        #expect(written.format == .webp && written.height == 30 && written.width < written.height, "\(written)")
        // One frame of the animation, composited.
        let convert = try CLI.run(["convert", anim, "--frame", "6", "-o", dir.path("f.png")])
        #expect(convert.status == 0, "\(convert.stderr)")
        #expect(try ImageInfo(contentsOfFile: dir.path("f.png")).width == 60)
        // The corpus's AVIF sequence, where it is present.
        guard let root = Corpus.webpAvif.directory?.path else { return }
        let sequence = root + "/avif/link-u/star-8bpc-with-alpha.avifs"
        let seqInfo = try CLI.run(["info", "--json", sequence])
        let seq = try JSONSerialization.jsonObject(with: Data(seqInfo.stdout.utf8)) as? [String: Any]
        #expect(seq?["format"] as? String == "avif" && seq?["frames"] as? Int == 5)
        let frame = try CLI.run(["convert", sequence, "--frame", "3", "-o", dir.path("s.png")])
        #expect(frame.status == 0, "\(frame.stderr)")
        #expect(try ImageInfo(contentsOfFile: dir.path("s.png")).hasAlpha)
    }
}
