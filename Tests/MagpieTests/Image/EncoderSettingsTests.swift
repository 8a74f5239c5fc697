import Foundation
import Testing

@testable import Magpie

/// JPEG XL output, PNG palettes and WebP presets through the Swift API: round trips against the
/// pixels encoded, lossless JPEG XL exact, effort and presets changing the bytes and not the
/// picture, a kept colour profile carried, bad settings refused with a typed error.
@Suite struct EncoderSettingsTests {
    static let width = 120, height = 80

    static func image(alpha: @escaping (Int, Int) -> UInt8 = { _, _ in 255 }) throws -> Image {
        try Image(width: width, height: height, rgba: Fixture.gradient(width: width, height: height, alpha: alpha))
    }

    @Test func jpegXLRoundTrips() throws {
        guard ImageFormat.jxl.isEncodable else {
            print("SKIPPED: this build or machine has no JPEG XL encoder")
            return
        }
        let image = try Self.image()
        let lossy = try image.encoded(as: .jxl(quality: 80))
        #expect(ImageFormat(sniffing: lossy) == .jxl && Array(lossy.prefix(2)) == [0xFF, 0x0A])
        #expect(try image.encoded(as: .jxl(quality: 80)) == lossy, "deterministic")
        let back = try Image(decoding: lossy)
        #expect(back.width == Self.width && back.height == Self.height && !back.hasAlpha)
        #expect(ColorProfileTests.psnr(back.pixels, image.pixels) > 35)
        #expect(try image.encoded(as: .jxl(quality: 30)).count < lossy.count, "lower quality, fewer bytes")
        // Effort changes the bytes, not the picture.
        let fast = try image.encoded(as: .jxl(quality: 80, effort: 1))
        let fastBack = try Image(decoding: fast)
        #expect(fast != lossy && ColorProfileTests.psnr(fastBack.pixels, image.pixels) > 33)
        // Quality 100 is lossless: every sample, alpha included.
        let translucent = try Self.image { x, _ in UInt8(x * 255 / (Self.width - 1)) }
        let exact = try Image(decoding: translucent.encoded(as: .jxl(quality: 100)))
        #expect(exact.pixels == translucent.pixels && exact.hasAlpha)
        #expect(!EncodingFormat.jxl(quality: 100).isLossy && EncodingFormat.jxl(quality: 99).isLossy)
        // Through the options a Swift app uses: the pipeline's encoding of a thumbnail.
        let thumb = try Image(decoding: lossy, options: .thumbnail(40))
        #expect(max(thumb.width, thumb.height) == 40)
        for bad: EncodingFormat in [.jxl(quality: 0), .jxl(quality: 101), .jxl(effort: 0), .jxl(effort: 10)] {
            #expect(throws: ImageCodecError.self, "\(bad)") { try image.encoded(as: bad) }
        }
    }

    @Test func jpegXLCarriesAKeptProfile() throws {
        guard ImageFormat.jxl.isEncodable else {
            print("SKIPPED: no JPEG XL encoder")
            return
        }
        let bytes = try ColorProfileTests.taggedJPEG()
        let seen = try Image(decoding: bytes, options: .thumbnail(64))
        var keep = DecodingOptions.thumbnail(64)
        keep.keepsColorProfile = true
        let kept = try Image(decoding: bytes, options: keep)
        for quality in [100, 90] {
            let back = try Image(decoding: kept.encoded(as: .jxl(quality: quality)))
            let p = ColorProfileTests.psnr(back.pixels, seen.pixels)
            #expect(
                back.colorProfileHandling == .convertedToSRGB && p > (quality == 100 ? 45 : 32), "q\(quality): \(p)")
        }
    }

    @Test func pngPalettesHoldAtMostTheColoursAsked() throws {
        guard ImageFormat.palettesAvailable else {
            #expect(throws: ImageCodecError.self) { try Self.image().encoded(as: .pngPalette()) }
            print("SKIPPED: no libimagequant")
            return
        }
        let image = try Self.image { x, _ in x < 20 ? 0 : 255 }
        for colors in [2, 16, 256] {
            let png = try image.encoded(as: .pngPalette(colors: colors))
            #expect(png[25] == 3, "colour type 3: a palette")
            let back = try Image(decoding: png)
            var distinct = Set<UInt32>()
            for i in stride(from: 0, to: back.pixels.count, by: 4) {
                distinct.insert(back.pixels[i..<(i + 4)].reduce(0) { $0 << 8 | UInt32($1) })
            }
            #expect(distinct.count <= colors && back.width == Self.width, "\(colors): \(distinct.count)")
            #expect(back.pixels[3] == 0 && back.pixels[(Self.width - 1) * 4 + 3] == 255, "alpha kept")
        }
        #expect(throws: ImageCodecError.self) { try image.encoded(as: .pngPalette(colors: 1)) }
        #expect(throws: ImageCodecError.self) { try image.encoded(as: .pngPalette(colors: 257)) }
    }

    @Test func webpPresetsChangeTheBytesNotThePicture() throws {
        let image = try Self.image()
        var bodies: Set<[UInt8]> = []
        for preset in EncodingFormat.WebPPreset.allCases {
            let body = try image.encoded(as: .webp(quality: 75, preset: preset))
            let back = try Image(decoding: body)
            #expect(ColorProfileTests.psnr(back.pixels, image.pixels) > 30, "\(preset)")
            bodies.insert(body)
        }
        #expect(bodies.count > 1, "the presets are not all the same encoder")
        #expect(
            EncodingFormat.WebPPreset(rawValue: "photo") == .photo && EncodingFormat.WebPPreset(rawValue: "x") == nil)
    }
}
