import MagpieTestSupport
import Testing

@testable import Magpie
@testable import MagpieServer

/// imgproxy's `processing/crop_test.go`, `extend_test.go` and `padding_test.go` (v4): the sizes
/// its tests assert, and (where its tests compare against stored pictures) where the window or
/// the canvas lies, checked against the source's own pixels.
extension ImgproxyTableTests {
    func expectSize(_ options: [String], _ w: Int, _ h: Int, _ file: String) throws {
        let image = try Self.render(options)
        #expect(
            image.width == w && image.height == h,
            "\(file) \(options.joined(separator: "/")): \(image.width)×\(image.height), imgproxy \(w)×\(h)")
    }

    // CropTestSuite.TestResizeFill: fill at every gravity, with DPR and offsets.
    @Test func cropResizeFill() throws {
        for g in ["ce", "no", "so", "noea", "soea", "sowe", "nowe"] {
            try expectSize(["rs:fill:100:26", "g:\(g)"], 100, 26, "crop_test.go")
        }
        for g in ["ce", "ea", "we", "noea", "soea", "sowe", "nowe"] {
            try expectSize(["rs:fill:26:100", "g:\(g)"], 26, 100, "crop_test.go")
        }
        let cases: [([String], Int, Int)] = [
            (["rs:fill:100:26", "g:ce", "dpr:2"], 200, 52),
            (["rs:fill:100:26", "g:no:0:5"], 100, 26), (["rs:fill:100:26", "g:no:0:5", "dpr:0.5"], 50, 13),
            (["rs:fill:100:26", "g:no:0:5", "dpr:2"], 200, 52), (["rs:fill:26:100", "g:no:5"], 26, 100),
            (["rs:fill:26:100", "g:no:5", "dpr:0.5"], 13, 50),
            // DPR does not raise the size past what the source gives (no `el`).
            (["rs:fill:26:100", "g:no:5", "dpr:2"], 26, 100),
            (["rs:fill:100:26", "g:no:0:0.1"], 100, 26), (["rs:fill:100:26", "g:no:0:0.1", "dpr:0.5"], 50, 13),
            (["rs:fill:100:26", "g:no:0:0.1", "dpr:2"], 200, 52),
        ]
        for (options, w, h) in cases { try expectSize(options, w, h, "crop_test.go") }
    }

    // CropTestSuite.TestCrop: a 50×50 crop at every gravity, with offsets and DPR 0.5.
    @Test func cropGravities() throws {
        for g in ["ce", "no", "so", "ea", "we", "noea", "nowe", "soea", "sowe"] {
            try expectSize(["c:50:50:\(g)"], 50, 50, "crop_test.go")
        }
        for offsets in ["10:0", "0:10", "10:10", "0.1:0", "0:0.1", "0.1:0.1"] {
            try expectSize(["c:50:50:ce:\(offsets)"], 50, 50, "crop_test.go")
        }
        try expectSize(["c:50:50:ce:10:10", "dpr:0.5"], 25, 25, "crop_test.go")
    }

    // CropTestSuite.TestCropGravityPriority: `c`'s own gravity wins over `g`; without one, `g`'s.
    @Test func cropGravityPriority() throws {
        let r1 = try Self.render(["g:no", "c:50:50"])
        let r2 = try Self.render(["c:50:50:no"])
        let r3 = try Self.render(["g:so", "c:50:50:no"])
        #expect(r1.pixels == r2.pixels && r1.pixels == r3.pixels)
        // North: the top middle 50×50 of the source.
        #expect(r1.pixels == (try Self.source.cropped(to: PixelRect(x: 75, y: 0, width: 50, height: 50))).pixels)
    }

    // ExtendTestSuite.TestExtend: 500×500 at every gravity; DPR 0.5 halves it, DPR 2 keeps it.
    @Test func extend() throws {
        for g in ["ce", "no", "so", "ea", "we", "noea", "soea", "sowe", "nowe"] {
            try expectSize(["w:500", "h:500", "ex:1:\(g)"], 500, 500, "extend_test.go")
        }
        for g in ["no:0:5", "ea:5", "no:0:0.1"] {
            try expectSize(["w:500", "h:500", "ex:1:\(g)"], 500, 500, "extend_test.go")
            try expectSize(["w:500", "h:500", "ex:1:\(g)", "dpr:0.5"], 250, 250, "extend_test.go")
            try expectSize(["w:500", "h:500", "ex:1:\(g)", "dpr:2"], 500, 500, "extend_test.go")
        }
        // Where the picture lies: south-east, 5 px in from the right edge at DPR 1.
        let placed = try Self.render(["w:500", "h:500", "ex:1:soea:5:0"])
        #expect(
            (try placed.cropped(to: PixelRect(x: 295, y: 400, width: 200, height: 100))).pixels == Self.source.pixels)
    }

    // ExtendTestSuite.TestExtendAspectRatio: 300×600 is 200×400; DPR 0.5 150×300, DPR 2 200×400.
    @Test func extendAspectRatio() throws {
        for g in ["ce", "no", "so", "ea", "we", "noea", "soea", "sowe", "nowe"] {
            try expectSize(["w:300", "h:600", "exar:1:\(g)"], 200, 400, "extend_test.go")
        }
        for g in ["no:0:5", "ea:5", "no:0:0.1"] {
            try expectSize(["w:300", "h:600", "exar:1:\(g)"], 200, 400, "extend_test.go")
            try expectSize(["w:300", "h:600", "exar:1:\(g)", "dpr:0.5"], 150, 300, "extend_test.go")
            try expectSize(["w:300", "h:600", "exar:1:\(g)", "dpr:2"], 200, 400, "extend_test.go")
        }
    }

    // PaddingTestSuite.TestPadding: left 10, top 20, right 30, bottom 40 on red, enlarged by DPR.
    @Test func padding() throws {
        for (dpr, w, h) in [("0.5", 120, 80), ("1", 240, 160), ("2", 480, 320)] {
            let image = try Self.render(["dpr:\(dpr)", "pd:20:30:40:10", "bg:255:0:0", "el:1"])
            #expect(image.width == w && image.height == h, "padding_test.go dpr:\(dpr): \(image.width)×\(image.height)")
            // The padding is the background; the picture starts past the left and top padding.
            #expect(Array(image.pixels[0..<4]) == [255, 0, 0, 255])
            let d = Double(dpr)!
            let (left, top) = (Int((10 * d).rounded(.toNearestOrEven)), Int((20 * d).rounded(.toNearestOrEven)))
            let inner = ((top + 1) * image.width + left + 1) * 4
            #expect(Array(image.pixels[inner..<inner + 4]) != [255, 0, 0, 255])
        }
    }
}
