import Foundation
import Testing

@testable import MagpieImage

/// A profile of another colour space than the image's is ignored, as libvips ("profile
/// incompatible with image") and Pillow's LittleCMS wrapper ignore it: the image decodes as its
/// untagged copy does, and says ``ColorProfileHandling/ignored``. A gray photo with Apple's
/// "Generic RGB Profile" (gamma 1.8) once came out brighter, read through that profile.
extension ColorProfileTests {
    /// The untagged JPEGs (gray, RGB, CMYK) and, for each, the profiles that do not fit it.
    static func mismatches() throws -> [(name: String, plain: [UInt8], profile: [UInt8])] {
        let rgbProfile = try ColourFixtures.bytes("rgb-gamma18.icc")
        let grayProfile = try ColourFixtures.bytes("gray-linear.icc")
        let cmykProfile = try ColourFixtures.bytes("cmyk.icc")
        let gray = try ColourFixtures.bytes("gray.jpg")
        let cmyk = try ColourFixtures.bytes("cmyk.jpg")
        var pixels = [UInt8](repeating: 255, count: 32 * 24 * 4)
        for i in 0..<(32 * 24) { (pixels[4 * i], pixels[4 * i + 1], pixels[4 * i + 2]) = (UInt8(i % 256), 90, 200) }
        let rgb = try Image(width: 32, height: 24, rgba: pixels).encoded(as: .jpeg(quality: 90))
        return [
            ("gray, RGB profile", gray, rgbProfile), ("gray, CMYK profile", gray, cmykProfile),
            ("RGB, gray profile", rgb, grayProfile), ("RGB, CMYK profile", rgb, cmykProfile),
            ("CMYK, RGB profile", cmyk, rgbProfile), ("CMYK, gray profile", cmyk, grayProfile),
        ]
    }

    @Test func aProfileOfAnotherColourSpaceIsIgnored() throws {
        for (name, plain, profile) in try Self.mismatches() {
            let untagged = try Image(decoding: plain)
            let tagged = try Image(decoding: ColourFixtures.tagged(plain, profile))
            #expect(untagged.colorProfileHandling == .none, "\(name)")
            #expect(tagged.colorProfileHandling == .ignored, "\(name)")
            #expect(tagged.pixels == untagged.pixels, "\(name): the untagged file's pixels")
            // Kept or not, an ignored profile is not carried into the result.
            var keep = DecodingOptions.default
            keep.keepsColorProfile = true
            let kept = try Image(decoding: ColourFixtures.tagged(plain, profile), options: keep)
            #expect(kept.colorProfile == nil && kept.pixels == untagged.pixels, "\(name), kept")
        }
    }

    /// The profiles themselves are usable: on the image they fit, each converts.
    @Test func theMatchingProfilesConvert() throws {
        let gray = try ColourFixtures.bytes("gray.jpg")
        let cmyk = try ColourFixtures.bytes("cmyk.jpg")
        for (plain, profile) in [(gray, "gray-linear.icc"), (cmyk, "cmyk.icc")] {
            let tagged = try Image(decoding: ColourFixtures.tagged(plain, try ColourFixtures.bytes(profile)))
            #expect(tagged.colorProfileHandling == .convertedToSRGB, "\(profile)")
            #expect(tagged.pixels != (try Image(decoding: plain)).pixels, "\(profile) changes the pixels")
        }
    }
}
