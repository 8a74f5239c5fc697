import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie
@testable import MagpieServer

/// Through the service, a profile of another colour space than the source's changes nothing: the
/// result is byte for byte the untagged source's.
extension ImageServiceTests {
    @Test func aProfileOfAnotherColourSpaceLeavesTheResultAsTheUntaggedSources() async throws {
        let cases = try ColorProfileTests.mismatches()
        let handler: LoopbackServer.Handler = { request in
            for (i, c) in cases.enumerated() {
                if request.path == "/plain\(i).jpg" { return .ok(c.plain, contentType: "image/jpeg") }
                if request.path == "/tagged\(i).jpg" {
                    return .ok(ColourFixtures.tagged(c.plain, c.profile), contentType: "image/jpeg")
                }
            }
            return .respond(status: 404)
        }
        let h = try await Self.harness(handler)
        for (i, c) in cases.enumerated() {
            for options in ["rs:fit:16:16", "rs:fit:16:16/scp:0"] {
                let plain = await h.get(h.target(options, "/plain\(i).jpg", ext: "png"))
                let tagged = await h.get(h.target(options, "/tagged\(i).jpg", ext: "png"))
                #expect(plain.status == 200 && tagged.status == 200, "\(c.name)")
                #expect(tagged.body == plain.body, "\(c.name), \(options)")
                #expect(!ColorProfileTests.contains(tagged.body, "iCCP"), "\(c.name): no profile is carried")
            }
        }
        try await h.finish()
    }
}
