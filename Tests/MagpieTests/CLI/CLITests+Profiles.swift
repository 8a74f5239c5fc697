import Foundation
import MagpieTestSupport
import Testing

@testable import Magpie

/// `magpie info` says what a decode does with a file's colour profile: none, converted to sRGB,
/// or ignored (an RGB profile on a gray JPEG, say).
extension CLITests {
    @Test func infoSaysWhetherAColourProfileIsConvertedOrIgnored() throws {
        let dir = try TemporaryDirectory()
        let gray = try ColourFixtures.bytes("gray.jpg")
        let files = [
            ("plain.jpg", gray),
            ("mismatch.jpg", ColourFixtures.tagged(gray, try ColourFixtures.bytes("rgb-gamma18.icc"))),
            ("match.jpg", ColourFixtures.tagged(gray, try ColourFixtures.bytes("gray-linear.icc"))),
        ]
        for (name, bytes) in files { try Data(bytes).write(to: URL(fileURLWithPath: dir.path(name))) }
        let result = try CLI.run(["info", "--json"] + files.map { dir.path($0.0) })
        #expect(result.status == 0, "\(result.stderr)")
        let profiles = try result.stdout.split(separator: "\n").map {
            (try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["profile"] as? String
        }
        #expect(profiles == ["none", "ignored", "converted"])
        let text = try CLI.run(["info", dir.path("mismatch.jpg")])
        #expect(text.status == 0 && text.stdout.contains("colour profile ignored"))
        #expect(try CLI.run(["info", dir.path("plain.jpg")]).stdout.contains("profile") == false)
    }
}
