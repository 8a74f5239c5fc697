import MagpieTestSupport
import Testing

@testable import Magpie
@testable import MagpieServer

/// imgproxy's `processing/rotate_and_flip_test.go` (v4): eight PNGs of the same stored pixels
/// tagged with EXIF orientations 1 to 8 (its `orientation-N.png`; ours made here, with an `eXIf`
/// chunk), each through the four rotations and four flip combinations, with and without `ar`.
extension ImgproxyTableTests {
    /// `png` with an `eXIf` chunk (a little-endian TIFF structure whose IFD0 holds the
    /// orientation) after IHDR.
    static func taggedPNG(_ png: [UInt8], orientation: Int) -> [UInt8] {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16) }
        let tiff =
            Array("II*\u{0}".utf8) + le32(8) + le16(1) + le16(0x0112) + le16(3) + le32(1)
            + le16(orientation) + le16(0) + le32(0)
        let chunk = Array("eXIf".utf8) + tiff
        let framed = Gzip.be32(UInt32(tiff.count)) + chunk + Gzip.be32(Gzip.crc32(chunk))
        return Array(png[0..<33]) + framed + Array(png[33...])
    }

    static let oriented: [[UInt8]] = {
        let small = try! render(["rs:fit:40:20"])
        let png = try! small.encoded(as: .png())
        return (1...8).map { taggedPNG(png, orientation: $0) }
    }()

    static func decode(_ png: [UInt8], _ options: [String]) throws -> Image {
        let parsed = try ProcessingOptions.parse(options + ["f:png"], presets: [:])
        let variant = Variant(
            parsed, format: "png", limits: .init(pixels: 1 << 30, frames: 1 << 20, framePixels: 1 << 40))
        return try variant.processor.process(.data(png), firstFrameOnly: true)
    }

    /// The 32 rotations and flips of `rotate_and_flip_test.go`'s `collectRotationsFlips`.
    static let turns: [[String]] = [0, 90, 180, 270].flatMap { rot in
        [("0", "0"), ("0", "1"), ("1", "0"), ("1", "1")].map { ["rot:\(rot)", "fl:\($0.0):\($0.1)"] }
    }

    @Test func everyContainerTellsTheOrientation() throws {
        for (i, png) in Self.oriented.enumerated() {
            let info = try ImageInfo(probing: png)
            #expect(info.orientation == i + 1, "orientation-\(i).png: \(info.orientation)")
            // ar:1 (the default) shows the stored pixels turned as the tag says.
            let upright = try Self.decode(png, [])
            let stored = try Image(decoding: png, options: DecodingOptions(appliesOrientation: false))
            #expect(
                upright.pixels == (try stored.transformed(Orientation(rawValue: i + 1)!)).pixels, "orientation \(i + 1)"
            )
        }
    }

    // TestOrientationAutoRotate: with ar:0 the eight are one picture; with ar:1 each differs from
    // the one before.
    @Test func orientationAutoRotate() throws {
        let stored = try Self.oriented.map { try Self.decode($0, ["ar:0"]).pixels }
        #expect(stored.allSatisfy { $0 == stored[0] })
        let upright = try Self.oriented.map { try Self.decode($0, ["ar:1"]).pixels }
        for i in 1..<upright.count { #expect(upright[i] != upright[i - 1], "orientation \(i) and \(i + 1)") }
    }

    // TestRotateFlip (ar:0) and TestRotateFlipAutoRotate (ar:1).
    @Test(arguments: [false, true])
    func rotateFlip(autoRotate: Bool) throws {
        let results = try Self.oriented.map { png in
            try Self.turns.map { try Self.decode(png, ["ar:\(autoRotate ? 1 : 0)"] + $0) }
        }
        for n in 1..<results.count {
            for (i, turn) in Self.turns.enumerated() {
                let same = results[0][i].pixels == results[n][i].pixels
                #expect(same != autoRotate, "orientation-\(n).png \(turn): \(same ? "same as" : "differs from") 0")
            }
        }
        for (n, turned) in results.enumerated() {
            for i in 1..<turned.count {
                #expect(turned[i].pixels != turned[i - 1].pixels, "orientation-\(n).png \(Self.turns[i])")
            }
            // Each is the upright picture turned by `rot` then flipped, exactly.
            let upright = turned[0]
            for (i, turn) in Self.turns.enumerated() {
                let rot = Int(turn[0].dropFirst(4))!
                let flips = turn[1].dropFirst(3).split(separator: ":").map { $0 == "1" }
                let o = Orientation(rotatingClockwise: rot)!.then(.flip(horizontal: flips[0], vertical: flips[1]))
                #expect(turned[i].pixels == (try upright.transformed(o)).pixels, "orientation-\(n).png \(turn)")
            }
        }
    }
}
