import Foundation
import Magpie
import MagpieTestSupport
import Testing

@Suite struct FileTests {
    @Test func fileDecodingMatchesMemoryDecoding() throws {
        let dir = try TemporaryDirectory()
        let png = try Image(width: 120, height: 80, rgba: Fixture.gradient(width: 120, height: 80)).encoded(as: .png())
        let path = dir.path("g.png")
        try Data(png).write(to: URL(fileURLWithPath: path))
        for options in [DecodingOptions.default, .thumbnail(32), DecodingOptions(resize: .fill(width: 20, height: 20))]
        {
            let fromFile = try Image(contentsOfFile: path, options: options)
            let fromMemory = try Image(decoding: png, options: options)
            #expect(fromFile == fromMemory)
        }
        #expect(try ImageInfo(contentsOfFile: path) == ImageInfo(probing: png))
        let size = try Image.outputSize(ofFile: path, options: .thumbnail(60))
        #expect(size.width == 60 && size.height == 40)
    }

    @Test func unreadableFilesThrowWithTheReason() throws {
        let dir = try TemporaryDirectory()
        for path in [dir.path("missing.jpg"), dir.url.path] {
            do {
                _ = try Image(contentsOfFile: path)
                Issue.record("\(path) decoded")
            } catch {
                #expect(error.coreFailure?.code == .fileUnreadable)
                #expect(error.coreFailure?.detail?.isEmpty == false)
            }
            #expect(throws: ImageCodecError.self) { try ImageInfo(contentsOfFile: path) }
        }
        let empty = dir.path("empty.png")
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        do {
            _ = try Image(contentsOfFile: empty)
            Issue.record("empty file decoded")
        } catch {
            #expect(error.coreFailure?.code == .unknownFormat)
        }
    }

    /// Every format fixture (Tests/fixtures/formats, each format Magpie reads) decodes the same
    /// from its file as from memory; the corpus's GIFs and PNG suite too where it is present.
    @Test func filesDecodeTheSameFromDisk() throws {
        var paths = try FileManager.default.contentsOfDirectory(atPath: FormatFixtures.directory.path)
            .filter { !$0.hasSuffix(".png") && !$0.hasSuffix(".sh") && !$0.hasSuffix(".c") }
            .sorted().map(FormatFixtures.path)
        #expect(paths.count > 30)
        if let corpus = Corpus.directory {
            for row in Corpus.rows where row.path.hasPrefix("gif/") || row.path.hasPrefix("png/pngsuite/b") {
                paths.append(corpus.appendingPathComponent(row.path).path)
            }
        }
        var decoded = 0
        for path in paths {
            let fromFile = try? Image(contentsOfFile: path, options: .thumbnail(40))
            let fromMemory = try? Image(
                decoding: Array(try Data(contentsOf: URL(fileURLWithPath: path))), options: .thumbnail(40))
            #expect(fromFile == fromMemory, "\(path)")
            if fromFile != nil { decoded += 1 }
        }
        #expect(decoded > 30, "the fixtures decode")
    }
}
