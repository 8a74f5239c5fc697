import Foundation
import MagpieImage
import Testing

@testable import MagpieServer

/// thumbor's pixel filters held byte for byte to thumbor 7.8's own C extensions
/// (`Tests/fixtures/thumbor/pixels.json`, written by `scripts/thumbor-pixels.py` from the same
/// pixels), each read from its URL text by the filter table.
struct ThumborPixelTests {
    struct Table: Decodable {
        struct Case: Decodable {
            let filter: String
            let pixels: String
        }
        let thumbor: String
        let width: Int
        let height: Int
        let source: String
        let cases: [Case]
        let opaqueRows: Int
        let opaque: [Case]
        let fillAuto: String
        struct Canvas: Decodable {
            let filter: String
            let box: [Int]
            let size: [Int]
            let pixels: String
        }
        let canvas: [Canvas]
        let colors: [String: String]
        struct MaxBytes: Decodable {
            let quality: Int
            let maxBytes: Int
            let asked: [Int]
            let size: Int
        }
        let maxBytes: [MaxBytes]
    }

    /// scripts/thumbor-pixels.py's `source()`: gradients, a flat patch, alpha from opaque to clear.
    static func source(_ w: Int, _ h: Int) -> [UInt8] {
        var out: [UInt8] = []
        for y in 0..<h {
            for x in 0..<w {
                let rgb =
                    x < 4 && y < 4
                    ? [200, 40, 90] : [(x * 11 + y * 3) % 256, (y * 15 + x * x) % 256, (x * y * 7 + 60) % 256]
                let a = y < 9 ? 255 : (255 - x * 11 + 256) % 256
                out += (rgb + [a]).map { UInt8($0) }
            }
        }
        return out
    }

    static func hex(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        var i = text.startIndex
        while i < text.endIndex {
            let j = text.index(i, offsetBy: 2)
            out.append(UInt8(text[i..<j], radix: 16)!)
            i = j
        }
        return out
    }

    /// The filter text run as a URL's `filters:` part would run it, over `pixels`.
    static func run(_ filters: String, _ pixels: [UInt8], _ w: Int, _ h: Int) throws -> (ThumborRequest, [UInt8]) {
        var path = ThumborPath()
        path.filters = filters
        let request = ThumborRequest(path, settings: ThumborSettings())
        var image = try Image(width: w, height: h, rgba: pixels)
        for p in request.after { image = try p.process(.image(image), firstFrameOnly: true) }
        return (request, image.pixels)
    }

    @Test func everyFilterGivesThumborsBytes() throws {
        let table = try #require(ThumborTables.load("pixels.json", as: Table.self))
        #expect(table.thumbor == "7.8.0" && table.cases.count >= 24 && table.opaque.count >= 3)
        let source = Self.source(table.width, table.height)
        #expect(source == Self.hex(table.source), "the test draws the script's pixels")
        for c in table.cases {
            let (request, out) = try Self.run(c.filter, source, table.width, table.height)
            #expect(request.after.count == 1 && request.failure == nil, "\(c.filter) read as one filter")
            let expected = Self.hex(c.pixels)
            let wrong = zip(out, expected).enumerated().filter { $0.element.0 != $0.element.1 }
            #expect(wrong.isEmpty, "\(c.filter): \(wrong.count) bytes differ, first at \(wrong.first?.offset ?? -1)")
            // Alpha is never a colour filter's.
            if !c.filter.hasPrefix("blur") && !c.filter.hasPrefix("convolution") {
                #expect(stride(from: 3, to: out.count, by: 4).allSatisfy { out[$0] == source[$0] }, "\(c.filter)")
            }
        }
        // An opaque image is Pillow's RGB: its colours as thumbor's, its alpha left opaque.
        let opaque = Array(source.prefix(table.width * table.opaqueRows * 4))
        for c in table.opaque {
            let (_, out) = try Self.run(c.filter, opaque, table.width, table.opaqueRows)
            let rgb = out.enumerated().filter { $0.offset % 4 != 3 }.map(\.element)
            #expect(rgb == Self.hex(c.pixels), "\(c.filter), opaque")
            #expect(stride(from: 3, to: out.count, by: 4).allSatisfy { out[$0] == 255 }, "\(c.filter), opaque")
        }
    }

    /// fill and background_color through thumbor's own filter classes and Pillow engine: the box,
    /// the colour (names, hex of 3, 4, 6 and 8 digits, transparent, auto), centring (a box smaller
    /// than the image crops it), merged or pasted, byte for byte.
    @Test func fillAndBackgroundAreThumborsCanvases() throws {
        let table = try #require(ThumborTables.load("pixels.json", as: Table.self))
        #expect(table.canvas.count >= 13)
        let source = Self.source(table.width, table.height)
        let image = try Image(width: table.width, height: table.height, rgba: source)
        for c in table.canvas {
            var path = ThumborPath()
            path.filters = c.filter
            let request = ThumborRequest(path, settings: ThumborSettings())
            var fill = try #require(request.after.first as? ThumborFill, "\(c.filter)")
            fill.box = (c.box[0], c.box[1])
            let out = try fill.process(.image(image), firstFrameOnly: true)
            #expect([out.width, out.height] == c.size, "\(c.filter): \(out.width)x\(out.height)")
            let expected = Self.hex(c.pixels)
            let wrong = zip(out.pixels, expected).enumerated().filter { $0.element.0 != $0.element.1 }
            #expect(
                out.pixels.count == expected.count && wrong.isEmpty,
                "\(c.filter): \(wrong.count) bytes differ, first at \(wrong.first?.offset ?? -1)")
        }
        // The mean colour auto takes is _fill.c's.
        #expect(ThumborPixels.mean(source).map { String(format: "%02x", $0) }.joined() == table.fillAuto)
        // Every name Pillow knows, and only those, as Pillow reads them.
        #expect(ThumborColor.named.count == table.colors.count)
        for (name, hex) in table.colors {
            #expect(ThumborColor.parse(name) == Self.hex(hex) + [255], "\(name)")
            #expect(ThumborColor.parse(name.uppercased()) == Self.hex(hex) + [255], "\(name), any case")
        }
        for bad in ["reddish", "f0000", "ff00000", "gg0000", "", "#ff0000"] {
            #expect(ThumborColor.parse(bad) == nil, "\(bad)")
            #expect(try Self.run("fill(\(bad))", Self.source(8, 8), 8, 8).0.after.isEmpty, "fill(\(bad)): nothing")
        }
        // A box the URL could make huge is refused, not allocated.
        var huge = try #require(
            ThumborRequest(Self.path("fill(red)"), settings: ThumborSettings()).after.first as? ThumborFill)
        huge.box = (90_000, 90_000)
        #expect(throws: ThumborFill.TooLarge.self) { try huge.process(.image(image), firstFrameOnly: true) }
    }

    /// max_bytes as thumbor's handler fits a body (`reload_to_fit_in_kb`, over an engine whose body
    /// at quality q is 100 q bytes): the same answer from the same qualities, less thumbor's last
    /// encode at the first quality, which is known too large.
    @Test func maxBytesFitsAsThumborsHandler() throws {
        let table = try #require(ThumborTables.load("pixels.json", as: Table.self))
        #expect(table.maxBytes.count >= 7)
        for c in table.maxBytes {
            var asked: [Int] = []
            let body = OutputSerializer.thumborFitting(maxBytes: c.maxBytes, quality: c.quality) { q in
                asked.append(q)
                return [UInt8](repeating: 0, count: 100 * q)
            }
            #expect(body.count == c.size, "q\(c.quality), \(c.maxBytes) bytes: \(body.count)")
            let theirs = c.asked.count > 1 && c.asked.last == c.quality ? Array(c.asked.dropLast()) : c.asked
            #expect(asked == theirs, "q\(c.quality), \(c.maxBytes) bytes: \(asked) against \(c.asked)")
        }
        // Through the filter: the serializer is told, and its name says so.
        var path = Self.path("max_bytes(5000):quality(70)")
        path.width = 10
        let request = ThumborRequest(path, settings: ThumborSettings())
        #expect(request.maxBytes == 5000 && request.quality == 70)
    }

    static func path(_ filters: String) -> ThumborPath {
        var path = ThumborPath()
        path.filters = filters
        return path
    }

    @Test func namesAreDistinctAndArgumentsThumborRaisesOnAreRefused() throws {
        let source = Self.source(8, 8)
        var names = Set<String>()
        for text in [
            "brightness(10)", "brightness(11)", "contrast(10)", "rgb(1,2,3)", "rgb(3,2,1)", "saturation(1.5)",
            "saturation(1.25)", "noise(10)", "noise(10,2)", "equalize()", "blur(2)", "blur(2,1.5)",
            "convolution(1;2;1,3)", "convolution(1;2;1,3,false)", "convolution(1;2;1,1)", "colorize(1,2,3,000000)",
            "curve([(0,0),(255,255)],[(0,0)],[(0,0)],[(0,0)])", "curve([(0,0),(255,254)],[(0,0)],[(0,0)],[(0,0)])",
        ] {
            let (request, _) = try Self.run(text, source, 8, 8)
            let name = try #require(request.after.first?.identifier, "\(text)")
            #expect(names.insert(name).inserted, "\(text) has a name of its own: \(name)")
        }
        // bytearray.fromhex takes three bytes here, or colorize raises (thumbor's 500): refused.
        for fill in ["ff88", "ff88001", "zz8800", "ff880000"] {
            #expect(try Self.run("colorize(1,2,3,\(fill))", source, 8, 8).0.failure != nil, "\(fill)")
        }
        #expect(try Self.run("colorize(1,2,3,ff 88 00)", source, 8, 8).0.failure == nil, "fromhex skips spaces")
        // Not the pattern: skipped, as thumbor skips a filter whose arguments do not match.
        for text in ["brightness(a)", "noise()", "curve([],[],[])", "rgb(1,2)", "saturation(x)"] {
            #expect(try Self.run(text, source, 8, 8).0.after.isEmpty, "\(text)")
        }
        // A kernel _convolution.c does not take (even sides, columns not dividing it, too large).
        for text in [
            "convolution(1;2,2)", "convolution(1;2;1;2,2)", "convolution(1;2;1,2)",
            "convolution(\(Array(repeating: "1", count: 627).joined(separator: ";")),3)",
        ] {
            #expect(try Self.run(text, source, 8, 8).0.failure != nil, "\(text.prefix(30))")
        }
        // An empty list matches curve's pattern, but the C reads past it: refused, not guessed.
        #expect(try Self.run("curve([],[(0,0)],[(0,0)],[(0,0)])", source, 8, 8).0.failure != nil)
        // Past an int's range the arithmetic saturates instead of overflowing.
        let (_, bright) = try Self.run("brightness(99999999999)", source, 8, 8)
        #expect(stride(from: 0, to: bright.count, by: 4).allSatisfy { bright[$0] == 255 })
        let (_, dark) = try Self.run("contrast(-99999999999)", source, 8, 8)
        #expect(dark.count == source.count)
    }

    @Test func seededNoiseIsGlibcsRandom() {
        // glibc 2.36's random() after srandom(7) and srandom(1) (its default state), via ctypes.
        var seven = GlibcRandom(seed: 7)
        #expect((0..<3).map { _ in seven.next() } == [1_045_618_677, 1_863_967_299, 1_272_579_899])
        var one = GlibcRandom(seed: 1)
        #expect((0..<3).map { _ in one.next() } == [1_804_289_383, 846_930_886, 1_681_692_777])
    }
}
