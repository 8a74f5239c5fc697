import Foundation
import Testing

@testable import MagpieImage

/// Colour profiles through the Swift API, on corpus photos that carry one: converted to sRGB by
/// default, kept when asked (and embedded again by the encoder), carried through processors.
@Suite struct ColorProfileTests {
    static let corpus = Corpus.Set("corpus")
    /// An RGB JPEG whose profile is not sRGB (libjpeg-turbo's test3.icc).
    static let tagged = "jpeg/ljt/testorig_rgb_444_floatdct_q100_test3icc.jpg"

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
        guard Self.corpus.isAvailable else { return }
        let bytes = try Self.corpus.bytes(Self.tagged)
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
        guard Self.corpus.isAvailable else { return }
        let bytes = try Self.corpus.bytes(Self.tagged)
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
        guard Self.corpus.isAvailable else { return }
        let bytes = try Self.corpus.bytes("jpeg/pillow/exif_gps.jpg")
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
        guard Self.corpus.isAvailable else { return }
        var keep = DecodingOptions.default
        keep.keepsColorProfile = true
        let ycck = try Image(decoding: try Self.corpus.bytes("jpeg/jpeg-decoder/ycck.jpg"), options: keep)
        #expect(ycck.colorProfileHandling == .convertedToSRGB && ycck.colorProfile == nil)
        let plain = try Image(
            decoding: try Image(width: 2, height: 2, rgba: Array(repeating: 200, count: 16)).encoded(as: .png()))
        #expect(plain.colorProfileHandling == .none && plain.colorProfile == nil)
    }
}
