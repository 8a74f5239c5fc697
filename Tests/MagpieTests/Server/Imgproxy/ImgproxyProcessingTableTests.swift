import MagpieTestSupport
import Testing

@testable import Magpie
@testable import MagpieServer

/// imgproxy's own test tables, turned on Magpie: each case's options, imgproxy's 200×100 source
/// (ours: a picture with no symmetry, made here) and the size imgproxy's test asserts. This file:
/// `processing/processing_test.go` (imgproxy v4: the resizing types with enlarge, extend and
/// extend-aspect-ratio, and `TestResultSizeLimit`, `max_result_dimension`).
@Suite struct ImgproxyTableTests {
    /// 200×100: a gradient with a dark top-left quarter, so every turn and flip differs.
    static let source: Image = {
        var rgba = Fixture.gradient(width: 200, height: 100)
        for y in 0..<50 { for x in 0..<100 { for c in 0..<3 { rgba[(y * 200 + x) * 4 + c] /= 4 } } }
        return try! Image(width: 200, height: 100, rgba: rgba)
    }()

    /// The result of `options` (URL segments) on `image`, through the service's variant, with
    /// the largest result `limit` (0: none) as the service passes `mrd` and its own.
    static func render(_ options: [String], _ image: Image = source, limit: Int = 0) throws -> Image {
        let parsed = try ProcessingOptions.parse(options, presets: [:])
        let variant = Variant(
            parsed, format: "png", limits: .init(pixels: 1 << 30, frames: 1 << 20, framePixels: 1 << 40),
            maxResultDimension: limit)
        return try variant.processor.process(.image(image), firstFrameOnly: true)
    }

    /// "WxH=OWxOH" cases of one of imgproxy's tables, with `prefix` segments before the size.
    static func check(_ table: String, _ prefix: [String], type: String, file: String = "processing_test.go") throws {
        for case_ in table.split(separator: " ") {
            let sides = case_.split(separator: "=").map { $0.split(separator: "x").map { Int($0)! } }
            let options = ["rs:\(type):\(sides[0][0]):\(sides[0][1])"] + prefix
            let image = try render(options)
            #expect(
                image.width == sides[1][0] && image.height == sides[1][1],
                "\(file) \(options.joined(separator: "/")): \(image.width)×\(image.height), imgproxy \(sides[1])")
        }
    }

    // TestResizeToFit, …Enlarge, …Extend, …ExtendAR.
    @Test func resizeToFit() throws {
        let base = "50x50=50x25 50x20=40x20 20x50=20x10 0x50=100x50 50x0=50x25"
        try Self.check(
            base + " 300x300=200x100 300x50=100x50 100x300=100x50 0x200=200x100 300x0=200x100", [], type: "fit")
        try Self.check(
            base + " 300x300=300x150 300x125=250x125 250x300=250x125 0x200=400x200 300x0=300x150", ["el:1"], type: "fit"
        )
        try Self.check(
            "50x50=50x50 50x20=50x20 20x50=20x50 300x300=300x300 300x125=300x125 250x300=250x300 0x50=100x50"
                + " 50x0=50x25 0x200=200x200 300x0=300x100", ["ex:1"], type: "fit")
        try Self.check(
            "50x50=50x50 50x20=50x20 20x50=20x50 300x300=200x200 300x125=240x100 250x500=200x400 0x50=100x50"
                + " 50x0=50x25 0x200=200x100 300x0=200x100", ["exar:1"], type: "fit")
    }

    // TestResizeToFill, …Enlarge, …Extend, …ExtendAR.
    @Test func resizeToFill() throws {
        let base = "50x50=50x50 50x20=50x20 20x50=20x50 0x50=100x50 50x0=50x25"
        try Self.check(
            base + " 300x300=200x100 300x50=200x50 100x300=100x100 0x200=200x100 300x0=200x100", [], type: "fill")
        try Self.check(
            base + " 300x300=300x300 300x125=300x125 250x300=250x300 0x200=400x200 300x0=300x150", ["el:1"],
            type: "fill")
        try Self.check(
            base + " 300x300=300x300 300x125=300x125 250x300=250x300 300x50=300x50 100x300=100x300 0x200=200x200"
                + " 300x0=300x100", ["ex:1"], type: "fill")
        try Self.check(
            base + " 300x300=200x200 300x125=240x100 250x500=200x400 300x50=300x50 100x300=100x300 0x200=200x100"
                + " 300x0=200x100", ["exar:1:ce"], type: "fill")
    }

    // TestResizeToFillDown, …Enlarge, …Extend, …ExtendAR.
    @Test func resizeToFillDown() throws {
        let base = "50x50=50x50 50x20=50x20 20x50=20x50 0x50=100x50 50x0=50x25"
        try Self.check(
            base + " 300x300=100x100 300x125=200x83 250x300=83x100 0x200=200x100 300x0=200x100", [], type: "fill-down")
        try Self.check(
            base + " 300x300=300x300 300x125=300x125 250x300=250x300 0x200=400x200 300x0=300x150", ["el:1"],
            type: "fill-down")
        try Self.check(
            base + " 300x300=300x300 300x125=300x125 250x300=250x300 300x50=300x50 100x300=100x300 0x200=200x200"
                + " 300x0=300x100", ["ex:1"], type: "fill-down")
        try Self.check(
            base + " 300x300=100x100 300x125=200x83 250x300=83x100 0x200=200x100 300x0=200x100", ["exar:1"],
            type: "fill-down")
    }

    /// TestResultSizeLimit: limit, type, box, extras (`el`, `ex`, `exar`, `rot:90`, padding), size.
    static let limitCases: [(Int, String, Int, Int, [String], Int, Int)] = [
        (1000, "fit", 100, 100, [], 100, 50), (50, "fit", 100, 100, [], 50, 25), (50, "fit", 0, 0, [], 50, 25),
        (100, "fit", 0, 100, [], 100, 50), (50, "fit", 150, 0, [], 50, 25), (100, "fit", 1000, 1000, [], 100, 50),
        (100, "fit", 1000, 1000, ["el:1"], 100, 50), (100, "fit", 1000, 2000, ["ex:1"], 50, 100),
        (100, "fit", 1000, 2000, ["exar:1"], 50, 100), (100, "fit", 100, 150, ["rot:90"], 50, 100),
        (100, "fit", 0, 0, ["rot:90"], 50, 100), (200, "fit", 100, 100, ["pd:100:200:300:400"], 200, 129),
        (1000, "fill", 100, 100, [], 100, 100), (50, "fill", 100, 100, [], 50, 50), (50, "fill", 1000, 50, [], 50, 13),
        (50, "fill", 100, 1000, [], 50, 50), (50, "fill", 0, 0, [], 50, 25), (100, "fill", 0, 100, [], 100, 50),
        (50, "fill", 150, 0, [], 50, 25), (100, "fill", 1000, 1000, [], 100, 50),
        (100, "fill", 1000, 1000, ["el:1"], 100, 100), (100, "fill", 1000, 2000, ["ex:1"], 50, 100),
        (100, "fill", 1000, 2000, ["exar:1"], 50, 100), (100, "fill", 100, 150, ["rot:90"], 67, 100),
        (100, "fill", 0, 0, ["rot:90"], 50, 100), (200, "fill", 100, 100, ["pd:100:200:300:400"], 200, 144),
        (1000, "fill-down", 100, 100, [], 100, 100), (50, "fill-down", 100, 100, [], 50, 50),
        (50, "fill-down", 1000, 50, [], 50, 3), (50, "fill-down", 100, 1000, [], 5, 50),
        (50, "fill-down", 0, 0, [], 50, 25), (100, "fill-down", 0, 100, [], 100, 50),
        (50, "fill-down", 150, 0, [], 50, 25), (100, "fill-down", 1000, 1000, [], 100, 100),
        (100, "fill-down", 1000, 1000, ["el:1"], 100, 100), (100, "fill-down", 1000, 2000, ["ex:1"], 50, 100),
        (100, "fill-down", 1000, 2000, ["exar:1"], 50, 100), (100, "fill-down", 1000, 1500, ["rot:90"], 67, 100),
        (100, "fill-down", 0, 0, ["rot:90"], 50, 100),
        (200, "fill-down", 100, 100, ["pd:100:200:300:400"], 200, 144),
        (200, "fill-down", 1000, 1000, ["pd:100:200:300:400"], 200, 144),
    ]

    @Test func resultSizeLimit() throws {
        for (limit, type, w, h, extras, ow, oh) in Self.limitCases {
            let options = ["rs:\(type):\(w):\(h)"] + extras
            let image = try Self.render(options, limit: limit)
            #expect(
                image.width == ow && image.height == oh,
                "processing_test.go mrd:\(limit)/\(options.joined(separator: "/")): \(image.width)×\(image.height)")
        }
    }
}
