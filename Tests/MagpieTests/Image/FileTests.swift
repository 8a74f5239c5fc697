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

    @Test(.enabled(if: Corpus.isAvailable)) func corpusFilesDecodeTheSameFromDisk() throws {
        for row in Corpus.rows where row.path.hasPrefix("gif/") || row.path.hasPrefix("png/pngsuite/b") {
            let path = Corpus.directory!.appendingPathComponent(row.path).path
            let fromFile = try? Image(contentsOfFile: path, options: .thumbnail(40))
            let fromMemory = try? Image(decoding: try Corpus.bytes(row.path), options: .thumbnail(40))
            #expect(fromFile == fromMemory, "\(row.path)")
        }
    }
}
