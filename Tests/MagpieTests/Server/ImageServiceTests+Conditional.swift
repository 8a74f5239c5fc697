import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie
@testable import MagpieServer

extension ImageServiceTests {
    /// The origin's `Last-Modified` is passed on (for the source and its variants, cached or
    /// not), and `If-Modified-Since` is answered from it when there is no `If-None-Match`.
    @Test func lastModifiedIsPassedOnAndIfModifiedSinceAnswered() async throws {
        let modified = "Mon, 02 Nov 2026 10:00:00 GMT"
        let h = try await Self.harness({ _ in
            .respond(
                status: 200, headers: [("Content-Type", "image/jpeg"), ("Last-Modified", modified)],
                body: NetFixture.jpeg)
        })
        let target = h.target("w:20", "/m.jpg")
        let first = await h.get(target)
        #expect(first.status == 200 && first.header("Last-Modified") == modified)
        let hit = await h.get(target)
        #expect(hit.header("X-Magpie-Cache") == "hit" && hit.header("Last-Modified") == modified)
        let other = await h.get(h.target("w:30", "/m.jpg"))
        #expect(other.header("Last-Modified") == modified, "a new variant of a cached source")
        let same = await h.get(target, headers: [("If-Modified-Since", modified)])
        #expect(same.status == 304 && same.body.isEmpty && same.header("Last-Modified") == modified)
        let later = await h.get(target, headers: [("If-Modified-Since", "Tue, 03 Nov 2026 10:00:00 GMT")])
        #expect(later.status == 304)
        let earlier = await h.get(target, headers: [("If-Modified-Since", "Sun, 01 Nov 2026 10:00:00 GMT")])
        #expect(earlier.status == 200 && earlier.body == first.body)
        let tagWins = await h.get(target, headers: [("If-None-Match", "\"other\""), ("If-Modified-Since", modified)])
        #expect(tagWins.status == 200, "If-None-Match decides when present")
        let garbage = await h.get(target, headers: [("If-Modified-Since", "yesterday")])
        #expect(garbage.status == 200)
        #expect(h.origin.requestCount("/m.jpg") == 1)
        try await h.finish()
    }
}
