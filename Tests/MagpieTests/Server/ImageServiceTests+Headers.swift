import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie
@testable import MagpieServer

/// imgproxy's answer variables through the service: CORS (`IMGPROXY_ALLOW_ORIGIN`), the canonical
/// link, the ETag buster, attachments by default and trusted signatures.
extension ImageServiceTests {
    @Test func corsAndTheCanonicalLink() async throws {
        let h = try await Self.harness(Self.images) {
            $0.allowOrigin = "https://app.example"
            $0.setsCanonicalHeader = true
        }
        let ok = await h.get(h.target("w:20", "/a.jpg"))
        #expect(ok.status == 200 && ok.header("Access-Control-Allow-Origin") == "https://app.example")
        #expect(ok.header("Access-Control-Allow-Methods") == "GET, OPTIONS")
        #expect(ok.header("Link") == "<\(h.url("/a.jpg"))>; rel=\"canonical\"")
        let missing = await h.get(h.target("w:20", "/none.jpg"))
        #expect(missing.status == 404 && missing.header("Access-Control-Allow-Origin") == "https://app.example")
        let preflight = await h.get("/anything", method: "OPTIONS")
        #expect(preflight.status == 200 && preflight.body.isEmpty)
        #expect(preflight.header("Access-Control-Allow-Methods") == "GET, OPTIONS")
        #expect(await h.get("/health").header("Access-Control-Allow-Origin") == nil)
        // A source whose text could end the header: every byte that could is encoded.
        #expect(ImageService.headerSafe("http://a/b>\r\nX: y\"") == "http://a/b%3E%0D%0AX:%20y%22")
        try await h.finish()
        let plain = try await Self.harness(Self.images)
        #expect(await plain.get("/x", method: "OPTIONS").status == 405, "without an origin, no preflight")
        #expect(await plain.get(plain.target("w:20", "/a.jpg")).header("Link") == nil)
        try await plain.finish()
    }

    @Test func theETagBusterAttachmentsAndTrustedSignatures() async throws {
        let plain = try await Self.harness(Self.images)
        let plainTag = try #require(await plain.get(plain.target("w:20", "/a.jpg")).header("ETag"))
        try await plain.finish()
        let h = try await Self.harness(Self.images) {
            $0.etagBuster = "v2"
            $0.returnsAttachment = true
            $0.trustedSignatures = ["trusted-one"]
        }
        let target = h.target("w:20", "/a.jpg")
        let r = await h.get(target)
        let tag = try #require(r.header("ETag"))
        #expect(tag != plainTag && tag.hasPrefix("\"") && tag.hasSuffix("\""), "the buster changes the tag")
        #expect(await h.get(target, headers: [("If-None-Match", tag)]).status == 304)
        #expect(await h.get(target, headers: [("If-None-Match", plainTag)]).status == 200)
        #expect(r.header("Content-Disposition")?.hasPrefix("attachment;") == true)
        let inline = await h.get(h.target("w:20/att:0", "/a.jpg"))
        #expect(inline.header("Content-Disposition") == nil, "att:0 overrides the server's default")
        let trusted = await h.get("/trusted-one/w:20/plain/\(h.url("/a.jpg"))")
        #expect(trusted.status == 200)
        #expect(await h.get("/trusted-two/w:20/plain/\(h.url("/a.jpg"))").status == 403)
        try await h.finish()
    }

    /// `IMGPROXY_S3_ALLOWED_BUCKETS` and `_DENIED_BUCKETS`: judged before anything is fetched.
    @Test func s3BucketListsAreJudgedBeforeAnyFetch() async throws {
        let h = try await Self.harness(Self.images) {
            $0.s3Sources = true
            $0.s3AllowedBuckets = ["photos", "avatars"]
            $0.s3DeniedBuckets = ["avatars"]
        }
        func plan(_ bucket: String) throws {
            _ = try h.service.plan(
                ServiceRequest(method: "GET", target: h.target("w:10", source: "s3://\(bucket)/a.jpg")))
        }
        #expect(throws: Never.self) { try plan("photos") }
        #expect(throws: ServiceError.sourceDenied) { try plan("avatars") }
        #expect(throws: ServiceError.sourceDenied) { try plan("backups") }
        try await h.finish()
    }
}

/// imgproxy's `IMGPROXY_LAST_MODIFIED_BUSTER` (its `TestLastModifiedBuster` and
/// `conditionalheaders` cases): an origin's `Last-Modified` before the buster is answered as the
/// buster, so an `If-Modified-Since` before it gets the image whole; a later one is kept.
extension ImageServiceTests {
    @Test func anOlderLastModifiedIsAnsweredAsTheBuster() async throws {
        let old = "Wed, 21 Oct 2015 07:28:00 GMT", new = "Tue, 01 Sep 2026 00:00:00 GMT"
        let h = try await Self.harness({ request in
            .respond(
                status: 200,
                headers: [("Content-Type", "image/jpeg"), ("Last-Modified", request.path == "/new.jpg" ? new : old)],
                body: NetFixture.jpeg)
        }) { $0.lastModifiedBuster = 1_577_836_800 }  // 2020-01-01T00:00:00Z
        let buster = "Wed, 01 Jan 2020 00:00:00 GMT"
        let r = await h.get(h.target("w:10", "/old.jpg"))
        #expect(r.status == 200 && r.header("Last-Modified") == buster, "\(r.header("Last-Modified") ?? "none")")
        let before = await h.get(
            h.target("w:10", "/old.jpg"), headers: [("If-Modified-Since", "Sun, 01 Dec 2019 00:00:00 GMT")])
        #expect(before.status == 200, "a copy from before the buster is stale")
        let after = await h.get(
            h.target("w:10", "/old.jpg"), headers: [("If-Modified-Since", "Fri, 01 May 2020 00:00:00 GMT")])
        #expect(after.status == 304)
        #expect(await h.get(h.target("w:10", "/new.jpg")).header("Last-Modified") == new, "a later one is kept")
        try await h.finish()
        #expect(ImageService.busted("not a date", 1) == nil && ImageService.busted(old, nil) == old)
    }
}
