import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie
@testable import MagpieServer

/// `local:///path` sources (imgproxy's `IMGPROXY_LOCAL_FILESYSTEM_ROOT`): served from beneath the
/// configured root only, and refused without one.
extension ImageServiceTests {
    /// A harness serving `local://` sources from beneath `root` (and the test origin as usual).
    static func localHarness(
        root: String, _ configure: (inout ServiceConfiguration) -> Void = { _ in }
    ) async throws -> Harness {
        try await harness(
            images,
            {
                $0.localRoot = root
                configure(&$0)
            }, transports: ["local": LocalRootLoader(root: root)])
    }

    @Test func localSourcesAreServedFromBeneathTheRootOnly() async throws {
        let files = try TemporaryDirectory()
        let root = try files.folder("root", files: ["a.jpg": NetFixture.jpeg])
        try Data(NetFixture.png).write(to: URL(fileURLWithPath: files.path("outside.png")))
        try FileManager.default.createSymbolicLink(
            atPath: root + "/out.png", withDestinationPath: files.path("outside.png"))
        let h = try await Self.localHarness(root: root)
        let ok = await h.get(h.target("rs:fit:48:48", source: "local:///a.jpg"))
        #expect(ok.status == 200 && ok.header("Content-Type") == "image/jpeg" && ok.header("ETag") != nil)
        #expect(try Image(decoding: ok.body).width == 48)
        for source in [
            "local:///../outside.png", "local:///%2e%2e/outside.png", "local:///out.png", "local:///none.jpg",
        ] {
            let r = await h.get(h.target("w:10", source: source))
            #expect(r.status == 404, "\(source): \(r.status)")
        }
        #expect(await h.get(h.target("w:10", source: "local://host/a.jpg")).status == 400)
        try await h.finish()
        let without = try await Self.harness(Self.images)
        #expect(await without.get(without.target("w:10", source: "local:///a.jpg")).status == 403)
        try await without.finish()
    }

    /// A `local://` file replaced on disk is a new source at once (not at the TTL): every request
    /// stats it, and the stamp (device, inode, size, time) keys its source and variants.
    @Test func aReplacedLocalFileIsANewSourceAtOnce() async throws {
        let files = try TemporaryDirectory()
        let root = try files.folder("root")
        let red = try Image(width: 40, height: 20, rgba: Array(repeating: [255, 0, 0, 255], count: 800).flatMap { $0 })
        let blue = try Image(
            width: 30, height: 30, rgba: Array(repeating: [0, 0, 255, 255], count: 900).flatMap { $0 })
        try Data(try red.encoded(as: .png())).write(to: URL(fileURLWithPath: root + "/a.png"))
        let h = try await Self.localHarness(root: root)
        func get() async throws -> (Image, String?) {
            let r = await h.get(h.target("rs:fit:20:20", source: "local:///a.png", ext: "png"))
            #expect(r.status == 200)
            return (try Image(decoding: r.body), r.header("X-Magpie-Cache"))
        }
        let (first, _) = try await get()
        #expect(first.width == 20 && first.height == 10 && first.pixels[0] == 255)
        #expect(try await get().1 == "hit", "unchanged: served from the cache")
        // Replaced by a rename (a new inode), as deployments publish files.
        try Data(try blue.encoded(as: .png())).write(to: URL(fileURLWithPath: root + "/new.png"))
        #expect(rename(root + "/new.png", root + "/a.png") == 0)
        let (second, cache) = try await get()
        #expect(second.width == 20 && second.height == 20 && second.pixels[2] == 255 && cache == "miss")
        // Rewritten in place with other bytes.
        try Data(try red.encoded(as: .png())).write(to: URL(fileURLWithPath: root + "/a.png"))
        #expect(try await get().0.pixels[0] == 255)
        // Gone: 404, not the cached picture.
        #expect(unlink(root + "/a.png") == 0)
        #expect(await h.get(h.target("rs:fit:20:20", source: "local:///a.png", ext: "png")).status == 404)
        try await h.finish()
    }
}

/// imgproxy's `IMGPROXY_SOURCE_URL_QUERY_SEPARATOR`: where a storage source's key ends and its
/// query (an S3 version) begins: `?`, another text, or none (a `?` is part of the key). A plain
/// source's `?` is written `%3F` in the path, as imgproxy's plain sources are.
extension ImageServiceTests {
    @Test func theSourceQuerySeparatorCutsAStorageKey() async throws {
        let files = try TemporaryDirectory()
        let root = try files.folder("root", files: ["a?b.jpg": NetFixture.jpeg, "c.jpg": NetFixture.jpeg])
        let none = try await Self.localHarness(root: root) { $0.paths.sourceQuerySeparator = "" }
        #expect(await none.get(none.target("w:10", source: "local:///a%3Fb.jpg")).status == 200, "? is in the key")
        try await none.finish()
        let bar = try await Self.localHarness(root: root) { $0.paths.sourceQuerySeparator = "|" }
        #expect(await bar.get(bar.target("w:10", source: "local:///c.jpg|v2")).status == 200, "cut at |")
        #expect(await bar.get(bar.target("w:10", source: "local:///a%3Fb.jpg")).status == 200, "? is in the key")
        try await bar.finish()
        let standard = try await Self.localHarness(root: root)
        #expect(await standard.get(standard.target("w:10", source: "local:///c.jpg%3Fv2")).status == 200, "cut at ?")
        try await standard.finish()
        var rules = PathRules()
        rules.sourceQuerySeparator = "|"
        #expect(rules.separated("s3://b/k?x#y|v1") == "s3://b/k%3Fx%23y?v1")
        #expect(rules.separated("s3://b/k|v#1?2") == "s3://b/k?v%231%3F2", "the query's own # and ? encoded")
        #expect(rules.separated("https://h/a?b|c") == "https://h/a?b|c", "http(s) keeps its own query")
        rules.sourceQuerySeparator = ""
        #expect(rules.separated("s3://b/k?v") == "s3://b/k%3Fv")
    }
}
