import Foundation
import MagpieTestSupport
import Testing

@testable import Magpie
@testable import MagpieServer

/// Orientation from every container that carries one (PNG `eXIf`, WebP `EXIF`, JPEG's APP1, TIFF's
/// tag, JPEG XL's codestream, HEIC's and AVIF's `irot`/`imir`): `magpie info`, the library's
/// probe and decode, and the service's variant agree, each picture turned upright.
extension CLITests {
    /// A 40×20 picture with no symmetry.
    static let unturned: Image = {
        var rgba = [UInt8](repeating: 0, count: 40 * 20 * 4)
        for y in 0..<20 {
            for x in 0..<40 {
                let i = (y * 40 + x) * 4
                (rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3]) = (UInt8(x * 6), UInt8(y * 12), x < 10 ? 255 : 0, 255)
            }
        }
        return try! Image(width: 40, height: 20, rgba: rgba)
    }()

    /// A lossless WebP of `image` in the extended format with an `EXIF` chunk saying `orientation`.
    static func taggedWebP(_ image: Image, orientation: Int) throws -> [UInt8] {
        let simple = try image.encoded(as: .webpLossless())
        func le(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        let tiff =
            Array("II*\u{0}".utf8) + le(8, 4) + le(1, 2) + le(0x0112, 2) + le(3, 2) + le(1, 4) + le(orientation, 2)
            + le(0, 2) + le(0, 4)
        let vp8x = Array("VP8X".utf8) + le(10, 4) + [0x08, 0, 0, 0] + le(image.width - 1, 3) + le(image.height - 1, 3)
        let exif = Array("EXIF".utf8) + le(tiff.count, 4) + tiff + (tiff.count % 2 == 1 ? [0] : [])
        let body = Array("WEBP".utf8) + vp8x + Array(simple[12...]) + exif
        return Array("RIFF".utf8) + le(body.count, 4) + body
    }

    @Test func everyContainerTurnsThePictureUpright() throws {
        let dir = try TemporaryDirectory()
        let png = ImgproxyTableTests.taggedPNG(try Self.unturned.encoded(as: .png()), orientation: 6)
        var files: [(String, [UInt8])] = [
            ("png.png", png), ("webp.webp", try Self.taggedWebP(Self.unturned, orientation: 6)),
            ("jpeg.jpg", ImageServiceTests.exifJPEG(try Self.unturned.encoded(as: .jpeg(quality: 95)), orientation: 6)),
        ]
        for name in ["tiff-orient6.tif", "jxl-orient6.jxl", "heic-orient6.heic", "avif-orient6.avif"] {
            files.append((name, Array(try FormatFixtures.bytes(name))))
        }
        // The corpus's AVIF (another encoder's irot) as an extra where it is present.
        if Corpus.webpAvif.directory != nil {
            files.append(("avif.avif", try Corpus.webpAvif.bytes("avif/link-u/kimono.rotate270.avif")))
        }
        for (name, bytes) in files { try Data(bytes).write(to: URL(fileURLWithPath: dir.path(name))) }
        let info = try CLI.run(["info", "--json"] + files.map { dir.path($0.0) })
        #expect(info.status == 0, "\(info.stderr)")
        let printed = try info.stdout.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        for ((name, bytes), json) in zip(files, printed) {
            let probed = try ImageInfo(probing: bytes)
            #expect(probed.orientation != 1, "\(name): an orientation")
            #expect(json?["orientation"] as? Int == probed.orientation, "\(name): info says \(json ?? [:])")
            // The library: upright, the stored pixels turned.
            let stored = try Image(decoding: bytes, options: DecodingOptions(appliesOrientation: false))
            let upright = try Image(decoding: bytes)
            let turned = try stored.transformed(Orientation(rawValue: probed.orientation)!)
            #expect(upright.width == turned.width && upright.height == turned.height, "\(name)")
            #expect(upright.pixels == turned.pixels, "\(name): the decode is the stored picture turned")
            // The service: `ar` (the default) upright, `ar:0` as stored.
            for (options, expected) in [([String](), upright), (["ar:0"], stored)] {
                let parsed = try ProcessingOptions.parse(options, presets: [:])
                let variant = Variant(
                    parsed, format: "png", limits: .init(pixels: 1 << 30, frames: 1 << 20, framePixels: 1 << 40))
                let served = try variant.processor.process(.data(bytes), firstFrameOnly: true)
                #expect(served.width == expected.width && served.height == expected.height, "\(name) \(options)")
            }
        }
    }
}
