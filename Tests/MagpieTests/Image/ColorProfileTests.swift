import Foundation
import Testing

@testable import MagpieImage

/// Colour profiles through the Swift API, on images made here that carry one: converted to sRGB
/// by default, kept when asked (and embedded again by the encoder), carried through processors.
@Suite struct ColorProfileTests {
    /// An RGB JPEG whose profile is not sRGB: a colour gradient with Apple's Generic RGB profile
    /// (gamma 1.8, `Tests/fixtures/colour`).
    static func taggedJPEG() throws -> [UInt8] {
        var pixels = [UInt8](repeating: 255, count: 96 * 72 * 4)
        for y in 0..<72 {
            for x in 0..<96 {
                let i = 4 * (y * 96 + x)
                (pixels[i], pixels[i + 1], pixels[i + 2]) = (
                    UInt8(x * 255 / 95), UInt8(y * 255 / 71), UInt8((x + y) % 64 * 4)
                )
            }
        }
        let jpeg = try Image(width: 96, height: 72, rgba: pixels).encoded(as: .jpeg(quality: 95))
        return ColourFixtures.tagged(jpeg, try ColourFixtures.bytes("rgb-gamma18.icc"))
    }

    /// A JPEG carrying EXIF (a GPS directory among it) and XMP, in APP1 segments.
    static func jpegWithExifAndXMP() throws -> [UInt8] {
        let jpeg = try Image(width: 80, height: 60, rgba: [UInt8](repeating: 128, count: 80 * 60 * 4))
            .encoded(as: .jpeg(quality: 90))
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16) }
        // TIFF, little-endian: IFD0 with GPSInfo (0x8825) pointing at a GPS IFD whose one entry,
        // GPSProcessingMethod, says "GPS".
        var tiff: [UInt8] = Array("II".utf8) + u16(42) + u32(8)
        tiff += u16(1) + u16(0x8825) + u16(4) + u32(1) + u32(26) + u32(0)
        tiff += u16(1) + u16(0x001B) + u16(7) + u32(11) + u32(44) + u32(0)
        tiff += Array("ASCII".utf8) + [0, 0, 0] + Array("GPS".utf8)
        let exif = Array("Exif".utf8) + [0, 0] + tiff
        let xmp =
            Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
            + Array("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF>XMP</rdf:RDF></x:xmpmeta>".utf8)
        func segment(_ payload: [UInt8]) -> [UInt8] {
            [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        }
        return Array(jpeg[0..<2]) + segment(exif) + segment(xmp) + Array(jpeg[2...])
    }

    static func contains(_ bytes: [UInt8], _ text: String) -> Bool {
        let needle = Array(text.utf8)
        return bytes.count >= needle.count
            && (0...(bytes.count - needle.count)).contains { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        var se = 0.0
        for i in stride(from: 0, to: a.count, by: 4) {
            for c in 0..<3 {
                let d = Double(a[i + c]) - Double(b[i + c])
                se += d * d
            }
        }
        let mse = se / Double(a.count / 4 * 3)
        return mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
    }

    @Test func aProfileIsConvertedByDefaultAndKeptWhenAsked() throws {
        let bytes = try Self.taggedJPEG()
        let seen = try Image(decoding: bytes)
        var keep = DecodingOptions.default
        keep.keepsColorProfile = true
        let kept = try Image(decoding: bytes, options: keep)
        #expect(seen.colorProfileHandling == .convertedToSRGB && seen.colorProfile == nil)
        #expect(kept.colorProfileHandling == .kept && (kept.colorProfile?.count ?? 0) > 128)
        #expect(kept.cost == seen.cost + kept.colorProfile!.count, "a memory cache charges the kept profile too")
        #expect(seen.pixels != kept.pixels, "the profile is not sRGB: converting changes the numbers")
        // Written with its profile, the kept image reads back as the converted one.
        let png = try kept.encoded(as: .png())
        #expect(Self.contains(png, "iCCP"))
        let back = try Image(decoding: png)
        #expect(back.colorProfileHandling == .convertedToSRGB && Self.psnr(back.pixels, seen.pixels) > 45)
        // The converted image is written untagged; so is a kept one whose profile is dropped.
        #expect(!Self.contains(try seen.encoded(as: .jpeg(quality: 90)), "ICC_PROFILE"))
        var stripped = kept
        stripped.colorProfile = nil
        #expect(!Self.contains(try stripped.encoded(as: .jpeg(quality: 90)), "ICC_PROFILE"))
        #expect(Self.contains(try kept.encoded(as: .jpeg(quality: 90)), "ICC_PROFILE"))
        #expect(Self.contains(try kept.encoded(as: .webp(quality: 90)), "ICCP"))
    }

    @Test func processorsCarryAKeptProfile() throws {
        let bytes = try Self.taggedJPEG()
        let thumb = DownsamplingProcessor(width: 64, height: 64, keepsColorProfile: true)
        #expect(
            thumb.identifier.hasSuffix(",kcp)")
                && !DownsamplingProcessor(width: 64, height: 64).identifier.contains("kcp"))
        let small = try thumb.process(.data(bytes), firstFrameOnly: true)
        #expect(small.colorProfileHandling == .kept && small.colorProfile != nil && small.width == 64)
        let turned = try small.transformed(.right).blurred(sigma: 1)
        #expect(turned.colorProfile == small.colorProfile && turned.colorProfileHandling == .kept)
        #expect(DefaultImageProcessor(keepsColorProfile: true).identifier == "magpie.decode(kcp)")
        #expect(DefaultImageProcessor().identifier.isEmpty)
    }

    /// What imgproxy strips by default, Magpie never writes: a photo with EXIF (GPS included) and
    /// XMP comes out with neither, in every format.
    @Test func outputsCarryNoExifXmpOrGPS() throws {
        let bytes = try Self.jpegWithExifAndXMP()
        #expect(Self.contains(bytes, "Exif"), "the source has EXIF")
        let image = try Image(decoding: bytes, options: .thumbnail(64))
        var keep = DecodingOptions.thumbnail(64)
        keep.keepsColorProfile = true
        let kept = try Image(decoding: bytes, options: keep)
        for format: EncodingFormat in [.jpeg(quality: 80), .png(), .webp(quality: 80), .webpLossless()] {
            for out in [try image.encoded(as: format), try kept.encoded(as: format)] {
                for marker in ["Exif", "GPS", "http://ns.adobe.com/xap", "XMP"] {
                    #expect(!Self.contains(out, marker), "\(format) wrote \(marker)")
                }
            }
        }
    }

    @Test func cmykIsConvertedEvenWhenKeepingAndUntaggedFilesHaveNone() throws {
        var keep = DecodingOptions.default
        keep.keepsColorProfile = true
        let ycck = try Image(
            decoding: ColourFixtures.tagged(try ColourFixtures.bytes("cmyk.jpg"), try ColourFixtures.bytes("cmyk.icc")),
            options: keep)
        #expect(ycck.colorProfileHandling == .convertedToSRGB && ycck.colorProfile == nil)
        let plain = try Image(
            decoding: try Image(width: 2, height: 2, rgba: Array(repeating: 200, count: 16)).encoded(as: .png()))
        #expect(plain.colorProfileHandling == .none && plain.colorProfile == nil)
    }
}
