import MagpieTestSupport
import Testing

@testable import Magpie
@testable import MagpieServer

/// imgproxy's geometry options beyond the box (`c`, `mw`, `mh`, `z`, `ex`, `exar`) and its
/// gravities (offsets, `fp`, `sm`) on a 96×64 gradient, through the service's processors.
extension VariantTests {
    func render(_ options: [String], _ image: Image? = nil) throws -> Image {
        let parsed = try ProcessingOptions.parse(options, presets: [:])
        let variant = Variant(
            parsed, format: "png", limits: .init(pixels: 1 << 30, frames: 1 << 20, framePixels: 1 << 40))
        return try variant.processor.process(.image(image ?? source), firstFrameOnly: true)
    }

    /// Pixel (x, y) of `image`.
    func pixel(_ image: Image, _ x: Int, _ y: Int) -> [UInt8] {
        Array(image.pixels[((y * image.width + x) * 4)..<((y * image.width + x) * 4 + 4)])
    }

    @Test(arguments: [
        // Crop before resize: pixels, fractions, a whole side; then the resize sees the crop.
        (["c:48:32"], 48, 32), (["c:0.5:0.5"], 48, 32), (["c:48:0"], 48, 64), (["c:48:32", "rs:fit:24:24"], 24, 16),
        (["c:48:0", "rs:fill:20:20"], 20, 20), (["c:200:200"], 96, 64),
        // A minimum raises the scale (aspect kept), the result cut to the width asked for.
        (["mw:64", "rs:fit:48:48"], 48, 43), (["w:48", "mh:48"], 48, 48), (["mw:192", "rs:fit:48:48"], 48, 48),
        (["mw:192", "rs:fit:48:48:1"], 48, 48), (["mw:72"], 96, 64), (["mw:192", "el:1"], 192, 128),
        // The zoom multiplies the scale, per axis when two are given.
        (["z:0.5"], 48, 32), (["z:0.5:0.25"], 48, 16), (["rs:fit:48:48", "z:0.5"], 24, 16), (["z:2"], 96, 64),
        // Extending onto the background, to the box or to its aspect ratio.
        (["rs:fit:200:100", "ex:1"], 200, 100), (["rs:fit:200:100", "exar:1"], 128, 64),
        (["rs:fit:40:100", "exar:1"], 40, 100), (["rs:fill:200:200:0:1"], 200, 200),
        (["rs:fit:200:100", "ex:1", "pd:10"], 220, 120), (["rs:fit:48:48", "ex:1"], 48, 48),
    ])
    func geometryOptionsGiveImgproxysSizes(_ options: [String], _ width: Int, _ height: Int) throws {
        let image = try render(options)
        #expect(image.width == width && image.height == height, "\(options): \(image.width)×\(image.height)")
    }

    @Test func cropTakesItsRegionAtItsGravityOrGs() throws {
        for (options, x, y) in [
            (["c:10:20"], 43, 22), (["c:10:20:ea"], 86, 22), (["c:10:20", "g:ea"], 86, 22),
            (["c:10:20:nowe:5:6"], 5, 6), (["c:10:20:soea:5:6"], 81, 38), (["c:10:20:fp:0.25:0.5"], 19, 22),
            (["c:10:20:ce:-3"], 40, 22),
        ] {
            let image = try render(options)
            #expect(image.width == 10 && image.height == 20)
            #expect(
                image.pixels == (try source.cropped(to: PixelRect(x: x, y: y, width: 10, height: 20))).pixels,
                "\(options)")
        }
    }

    @Test func gravityOffsetsAndFocusPointsMoveTheFillWindow() throws {
        for (gravity, x) in [
            ("we:5", 5), ("ea:5", 81), ("ce:-5", 38), ("ce:5", 48), ("we:0.25", 24), ("fp:0.25:0.5", 19),
            ("fp:1:0", 86),
        ] {
            let image = try render(["rs:fill:10:64", "g:\(gravity)"])
            let want = try source.cropped(to: PixelRect(x: x, y: 0, width: 10, height: 64))
            #expect(image.pixels == want.pixels, "g:\(gravity)")
        }
        // Pixel offsets follow dpr: 5 px at dpr 2 is 10 px of the doubled box.
        let doubled = try render(["rs:fill:5:32:1", "g:we:5", "dpr:2"])
        #expect(doubled.width == 10 && pixel(doubled, 0, 0) == pixel(source, 10, 0))
    }

    @Test func smartGravityKeepsWhatStandsOut() throws {
        // A flat grey with a saturated red disc near the right edge.
        var rgba = [UInt8](repeating: 128, count: 96 * 64 * 4)
        for y in 0..<64 {
            for x in 0..<96 {
                let i = (y * 96 + x) * 4
                rgba[i + 3] = 255
                if (x - 82) * (x - 82) + (y - 32) * (y - 32) <= 100 {
                    (rgba[i], rgba[i + 1], rgba[i + 2]) = (230, 20, 30)
                }
            }
        }
        let picture = try Image(width: 96, height: 64, rgba: rgba)
        func red(_ image: Image) -> Int {
            stride(from: 0, to: image.pixels.count, by: 4).filter {
                image.pixels[$0] > 200 && image.pixels[$0 + 1] < 60
            }.count
        }
        let smart = try render(["rs:fill:32:64", "g:sm"], picture)
        let centre = try render(["rs:fill:32:64"], picture)
        #expect(smart.width == 32 && red(smart) >= 250, "the whole disc (about 300 px) is in the window")
        #expect(red(centre) == 0)
        // Smart crop before the resize too.
        #expect(red(try render(["c:32:0:sm"], picture)) >= 250)
        // A featureless image is cut at the centre.
        let flat = try Image(width: 96, height: 64, rgba: [UInt8](repeating: 200, count: 96 * 64 * 4))
        #expect(try render(["rs:fill:32:64", "g:sm"], flat).pixels == (try render(["rs:fill:32:64"], flat)).pixels)
    }

    @Test func extendPlacesTheImageAtItsGravityAfterTheFilters() throws {
        let corner = try render(["rs:fit:200:100", "ex:1:nowe"])
        #expect(pixel(corner, 0, 0) == pixel(source, 0, 0) && pixel(corner, 150, 90) == [0, 0, 0, 0])
        let southEast = try render(["rs:fit:200:100", "ex:1:soea"])
        #expect(pixel(southEast, 199, 99) == pixel(source, 95, 63) && pixel(southEast, 0, 0)[3] == 0)
        // Blur comes before the extension (imgproxy's order): the new margin stays clear.
        let blurred = try render(["rs:fit:200:100", "ex:1", "bl:2"])
        #expect(pixel(blurred, 50, 50)[3] == 0 && pixel(blurred, 149, 50)[3] == 0 && pixel(blurred, 100, 50)[3] == 255)
        // The background colours the margin.
        let blue = try render(["rs:fit:200:100", "ex:1", "bg:0000ff"])
        #expect(pixel(blue, 10, 10) == [0, 0, 255, 255])
    }

    @Test func geometryOptionsNameTheirVariantAndBadValuesAre400() throws {
        let named = try ProcessingOptions.parse(
            ["rs:fill:10:20", "g:ea:3:4", "c:0.5:40:sm", "mw:5", "mh:6", "z:1.5", "ex:1:so", "exar:1"], presets: [:])
        #expect(named.variantName == "fill,10x20,ea:3.0:4.0,c0.5:40.0:sm,min5x6,z1.5:1.5,ex:so,exar:ce")
        #expect(
            try ProcessingOptions.parse(["g:ce", "c:0:0", "ex:0", "z:1"], presets: [:]).variantName == "fit,0x0,ce")
        // Offsets as Go's ParseFloat reads them, exponents included (imgproxy's parser).
        #expect(try ProcessingOptions.parse(["g:ea:1e3"], presets: [:]).gravity.offsetX == 1000)
        for bad in [
            "c", "c:10", "c:abc:1", "c:1.5:1", "c:-1:1", "c:10:10:up", "z:0", "z:-1", "z:1:2:3", "z:nan", "mw:-1",
            "mh:x", "ex:2", "ex:1:sm", "exar:1:sm", "ex:0:ce", "g:sm:1", "g:fp:2:0", "g:fp:0.5", "g:ea:x", "g:ea:1:2:3",
            "g:ea:1e", "g:ea:1e+", "g:fp:0.5:0.5:1", "rs:fit:1:1:0:1:sm",
        ] {
            #expect(throws: ServiceError.badOption, "\(bad)") { try ProcessingOptions.parse([bad], presets: [:]) }
        }
    }
}
