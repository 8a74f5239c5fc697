import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie
@testable import MagpieServer

/// imgproxy's test cases as its tests send them: `local://` sources through the service, a case
/// of each table and each parsing rule of issue 52 (the whole tables run at the variant level in
/// `ImgproxyTableTests`).
extension ImageServiceTests {
    @Test func imgproxysCasesThroughTheService() async throws {
        let files = try TemporaryDirectory()
        let png = try ImgproxyTableTests.source.encoded(as: .png())
        let root = try files.folder(
            "root",
            files: ["geometry.png": png, "orientation-5.png": ImgproxyTableTests.taggedPNG(png, orientation: 6)])
        let h = try await Self.localHarness(root: root)
        let cases: [(String, String, Int, Int)] = [
            ("mrd:50/rs:fit:100:100", "geometry", 50, 25), ("mrd:50/rs:fit:0:0", "geometry", 50, 25),
            ("mrd:200/rs:fit:100:100/pd:100:200:300:400", "geometry", 200, 129),
            ("rs:fill:26:100/g:no:5/dpr:2", "geometry", 26, 100),
            ("rs:fill:100:26/g:no:0:0.1/dpr:0.5", "geometry", 50, 13),
            ("w:500/h:500/ex:1:ea:5/dpr:2", "geometry", 500, 500), ("w:300/h:600/exar:1/dpr:0.5", "geometry", 150, 300),
            ("dpr:2/pd:20:30:40:10/bg:255:0:0/el:1", "geometry", 480, 320),
            ("dpr:1.000000/pd:20:30:40:10", "geometry", 240, 160), ("fl::1", "geometry", 200, 100),
            ("bg:fff/bg:", "geometry", 200, 100), ("wm:0.5:soea:10:20:0.6", "geometry", 200, 100),
            ("ph:1", "geometry", 200, 100), ("exp:32503669200", "geometry", 200, 100),
            ("ar:1", "orientation-5", 100, 200), ("ar:0", "orientation-5", 200, 100),
            ("rot:90/fl:1:1", "orientation-5", 200, 100),
        ]
        for (options, name, w, ht) in cases {
            let r = await h.get(h.target(options, source: "local:///\(name).png", ext: "png"))
            #expect(r.status == 200, "\(options): \(r.status) \(String(decoding: r.body.prefix(200), as: UTF8.self))")
            let size = try? ImageInfo(probing: r.body)
            #expect(
                size?.width == w && size?.height == ht, "\(options): \(size.map { "\($0.width)×\($0.height)" } ?? "-")")
        }
        // The flip is vertical only: the bottom row comes first.
        let flipped = try Image(
            decoding: await h.get(h.target("fl::1", source: "local:///geometry.png", ext: "png")).body)
        #expect(Array(flipped.pixels[0..<800]) == Array(ImgproxyTableTests.source.pixels[(99 * 800)..<(100 * 800)]))
        try await h.finish()
    }

    /// A hostile client's zoom and DPR, with no box to check before the fetch, cannot make a result
    /// past the server's largest: the geometry scales it down to `--max-result-dimension`, as
    /// imgproxy's `limitScale` does, padding included.
    @Test func zoomAndDPRStayWithinTheServersLargestResult() async throws {
        let h = try await Self.harness(Self.images) { $0.maxResultDimension = 64 }
        for options in ["z:100/dpr:100/el:1", "z:100:1/el:1/pd:20", "dpr:100/el:1/ex:1", "w:64/h:64/el:1/dpr:1e2"] {
            let r = await h.get(h.target(options, "/a.png", ext: "png"))
            if options.hasPrefix("w:") {
                #expect(r.status == 400, "a box of 6400 at its DPR is refused before the fetch: \(r.status)")
                continue
            }
            #expect(r.status == 200, "\(options): \(r.status)")
            let info = try ImageInfo(probing: r.body)
            #expect(max(info.width, info.height) <= 64, "\(options): \(info.width)×\(info.height)")
        }
        try await h.finish()
    }
}
