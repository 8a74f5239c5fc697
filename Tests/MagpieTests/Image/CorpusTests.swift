import Magpie
import Testing

@Suite("Corpus through the Swift API", .enabled(if: Corpus.isAvailable))
struct CorpusTests {
    @Test func everyManifestRowBehavesAsExpected() throws {
        #expect(try Self.check(Corpus.main) > 650)
    }

    @Test func everyWebPAndAVIFRowBehavesAsExpected() throws {
        guard Corpus.webpAvif.isAvailable else { return }
        #expect(ImageFormat.webp.isDecodable && ImageFormat.avif.isDecodable, "the SwiftPM build has both codecs")
        #expect(try Self.check(Corpus.webpAvif) == 207)
    }

    /// Every row of one manifest; returns how many were checked.
    static func check(_ set: Corpus.Set) throws -> Int {
        var checked = 0
        for row in set.rows {
            let bytes = try set.bytes(row.path)
            #expect(ImageFormat(sniffing: bytes).rawValue == row.format, "\(row.path)")
            let info = try? ImageInfo(probing: bytes)
            switch row.expected {
            case "ok":
                #expect(info?.width == row.width && info?.height == row.height, "\(row.path)")
                guard let info, info.format.isDecodable else {
                    #expect(throws: ImageCodecError.self, "\(row.path) is recognised only") {
                        try Image(decoding: bytes)
                    }
                    continue
                }
                if info.format != .png, let frames = row.frames {
                    #expect(info.frameCount == frames, "\(row.path)")
                }
                let thumb = try Image(decoding: bytes, options: .thumbnail(96))
                #expect(thumb.width <= 96 && thumb.height <= 96 && thumb.width > 0, "\(row.path)")
                if info.width * info.height < 4_000_000 {
                    let full = try Image(decoding: bytes)
                    let upright = info.uprightSize
                    #expect(full.width == upright.width && full.height == upright.height, "\(row.path)")
                    #expect(full.frames.count == (info.format == .png ? 1 : info.frameCount), "\(row.path)")
                    #expect(full.frames.allSatisfy { $0.pixels.count == full.width * full.height * 4 })
                }
            case "error":
                #expect(throws: ImageCodecError.self, "\(row.path) must not decode") { try Image(decoding: bytes) }
            default:
                if let image = try? Image(decoding: bytes), let info {
                    #expect(image.width == info.uprightSize.width, "\(row.path)")
                }
            }
            checked += 1
        }
        return checked
    }

    @Test func truncatedFilesFailWithTypedErrors() throws {
        let rows = Corpus.rows.filter { $0.path.hasPrefix("bad/truncated/") && $0.expected == "error" }
        #expect(rows.count > 10)
        for row in rows {
            let bytes = try Corpus.bytes(row.path)
            do {
                _ = try Image(decoding: bytes, options: .thumbnail(64))
                Issue.record("\(row.path) decoded")
            } catch {
                let code = error.coreFailure?.code
                #expect(
                    code == .truncated || code == .corrupt || code == .unknownFormat, "\(row.path): \(error)")
            }
        }
    }

    /// Orientations 1–8 of the same photo decode to the same upright picture.
    @Test(arguments: ["Landscape", "Portrait"])
    func orientationsGiveTheSameUprightPixels(_ name: String) throws {
        let reference = try Image(
            decoding: try Corpus.bytes("jpeg/exif-orientation/\(name)_1.jpg"), options: .thumbnail(120))
        for o in 2...8 {
            let image = try Image(
                decoding: try Corpus.bytes("jpeg/exif-orientation/\(name)_\(o).jpg"), options: .thumbnail(120))
            #expect(image.width == reference.width && image.height == reference.height, "\(name)_\(o)")
            guard image.pixels.count == reference.pixels.count else { continue }
            var total = 0
            for i in 0..<image.pixels.count where i % 4 != 3 {
                total += abs(Int(image.pixels[i]) - Int(reference.pixels[i]))
            }
            let mean = Double(total) / Double(image.pixels.count / 4 * 3)
            #expect(mean < 6, "\(name)_\(o): mean difference \(mean)")
        }
    }

    @Test func animatedGifKeepsFramesDelaysAndLoopCount() throws {
        let bytes = try Corpus.bytes("gif/sharp/animated-loop-3.gif")
        let image = try Image(decoding: bytes)
        let info = try ImageInfo(probing: bytes)
        #expect(image.frames.count == info.frameCount && info.frameCount > 1)
        #expect(image.loopCount == 2, "NETSCAPE repeat count 2: the animation plays three times")
        #expect(image.frames.contains { $0.delay > .zero })
        let single = try Image(decoding: bytes, options: DecodingOptions(frames: .single(1)))
        #expect(single.frames.count == 1 && single.pixels == image.frames[1].pixels)
    }
}
