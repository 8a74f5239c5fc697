import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie
@testable import MagpieServer

/// `local:///path` sources (imgproxy's `IMGPROXY_LOCAL_FILESYSTEM_ROOT`): served from beneath the
/// configured root only, and refused without one.
extension ImageServiceTests {
    @Test func localSourcesAreServedFromBeneathTheRootOnly() async throws {
        let files = try TemporaryDirectory()
        let root = files.path("root")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try Data(NetFixture.jpeg).write(to: URL(fileURLWithPath: root + "/a.jpg"))
        try Data(NetFixture.png).write(to: URL(fileURLWithPath: files.path("outside.png")))
        try FileManager.default.createSymbolicLink(
            atPath: root + "/out.png", withDestinationPath: files.path("outside.png"))
        let h = try await Self.harness(
            Self.images, { $0.localRoot = root }, transports: ["local": LocalRootLoader(root: root)])
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
}
