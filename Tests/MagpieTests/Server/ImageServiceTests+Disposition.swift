import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie
@testable import MagpieServer

/// imgproxy's `fn|filename` and `att|return_attachment`: a `Content-Disposition` (RFC 6266) with a
/// safe ASCII `filename` and the UTF-8 name in `filename*`, the result's extension added; nothing of
/// the request echoed unescaped; none without either option; neither changes the variant.
extension ImageServiceTests {
    @Test func filenamesAndAttachmentsAreContentDispositions() async throws {
        let h = try await Self.harness { request in
            request.path == "/dir/photo.png" ? .ok(NetFixture.png, contentType: "image/png") : .respond(status: 404)
        }
        let cases: [(String, String?)] = [
            ("rs:fit:8:8", nil),
            ("rs:fit:8:8/att:1", "attachment; filename=\"photo.png\"; filename*=UTF-8''photo.png"),
            ("rs:fit:8:8/fn:caf%C3%A9", "inline; filename=\"caf_.png\"; filename*=UTF-8''caf%C3%A9.png"),
            // "a\"b;c" in base64url, as an attachment: the quote and semicolon never reach the header raw.
            (
                "rs:fit:8:8/filename:YSJiO2M:1/return_attachment:1",
                "attachment; filename=\"a_b_c.png\"; filename*=UTF-8''a%22b%3Bc.png"
            ),
        ]
        var etags: Set<String> = []
        for (options, expected) in cases {
            let r = await h.get(h.target(options, "/dir/photo.png", ext: "png"))
            #expect(r.status == 200, "\(options)")
            #expect(
                r.header("Content-Disposition") == expected, "\(options): \(r.header("Content-Disposition") ?? "none")")
            etags.insert(r.header("ETag") ?? "")
        }
        #expect(etags.count == 1, "the name is not part of the variant")
        #expect(h.origin.requestCount("/dir/photo.png") == 1)
        for bad in ["fn:a%0Db", "fn:%E9", "fn:", "fn:a:2", "fn:%%", "att:yes"] {
            #expect(await h.get(h.target("rs:fit:8:8/" + bad, "/dir/photo.png")).status == 400, "\(bad)")
        }
        try await h.finish()
    }
}
