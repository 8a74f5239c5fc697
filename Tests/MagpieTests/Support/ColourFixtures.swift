import Foundation

/// The colour fixtures in `Tests/fixtures/colour` (made by its `make.sh`, through the C test that
/// uses them): a gray and a CMYK JPEG, untagged, and an RGB (gamma 1.8), a gray (linear) and a
/// CMYK profile. ``tagged(_:_:)`` puts a profile into a JPEG.
enum ColourFixtures {
    static let directory = FormatFixtures.directory.deletingLastPathComponent().appendingPathComponent("colour")

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// `jpeg` with `profile` in one APP2 `ICC_PROFILE` marker after its SOI.
    static func tagged(_ jpeg: [UInt8], _ profile: [UInt8]) -> [UInt8] {
        let length = profile.count + 16
        let marker: [UInt8] =
            [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)] + Array("ICC_PROFILE".utf8) + [0, 1, 1]
        return Array(jpeg[0..<2]) + marker + profile + Array(jpeg[2...])
    }
}
