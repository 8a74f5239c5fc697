import Foundation
import MagpieLoopback
import Testing

@testable import Magpie
@testable import MagpieServer

/// thumbor's filters through the service: each is a variant of its own, `max_bytes` fits the
/// body, `fill` pads a fit-in result to the box with the colour.
extension ImageServiceTests {
    @Test func thumborsFiltersAreVariantsAndDoTheirWork() async throws {
        let h = try await Self.harness(Self.images) { $0.thumbor = Self.servedSettings }
        let host = "127.0.0.2:\(h.origin.port)"
        func get(_ path: String) async -> ServiceResponse { await h.get(Self.thumborTarget(path, host: host)) }
        let plain = await get("/unsafe/96x64/filters:quality(95)/HOST/a.jpg")
        let small = await get("/unsafe/96x64/filters:quality(95):max_bytes(900)/HOST/a.jpg")
        #expect(plain.status == 200 && small.status == 200)
        #expect(plain.body.count > 900 && small.body.count <= 900, "\(plain.body.count) → \(small.body.count)")
        // fit-in leaves 96×64 at 50×33; fill(red) pads it to the box, centred.
        let filled = try Image(
            decoding: await get("/unsafe/fit-in/50x50/filters:fill(red):format(png)/HOST/a.jpg").body)
        #expect(filled.width == 50 && filled.height == 50)
        #expect(Array(filled.pixels[0..<4]) == [255, 0, 0, 255], "the band above is the fill")
        let mid = (25 * 50 + 25) * 4
        #expect(filled.pixels[mid] != 255 || filled.pixels[mid + 1] != 0, "the image in the middle")
        let bright = try Image(decoding: await get("/unsafe/48x32/filters:brightness(40):format(png)/HOST/a.jpg").body)
        let base = try Image(decoding: await get("/unsafe/48x32/filters:format(png)/HOST/a.jpg").body)
        #expect(
            zip(bright.pixels, base.pixels).enumerated().allSatisfy {
                $0.offset % 4 == 3 || $0.element.0 >= $0.element.1
            })
        #expect(bright.pixels != base.pixels)
        #expect(h.origin.requestCount("/a.jpg") == 1, "one download for every filter's variant")
        try await h.finish()
    }

    /// AUTO_PNG_TO_JPG and autojpg as thumbor's can_auto_convert_png_to_jpg reads them: an opaque
    /// result of a PNG source is a JPEG; a transparent one stays PNG; with the setting, any
    /// autojpg turns it off; without it, autojpg() turns it on; a format filter wins.
    @Test func thumborsPNGsTurnJPEGAsItsSettingsSay() async throws {
        let cases: [(setting: Bool, filters: String, type: String)] = [
            (true, "background_color(white)", "image/jpeg"), (true, "", "image/png"),
            (true, "background_color(white):autojpg()", "image/png"),
            (false, "background_color(white)", "image/png"),
            (false, "background_color(white):autojpg()", "image/jpeg"),
            (false, "background_color(white):autojpg(false)", "image/png"),
            (true, "background_color(white):format(png)", "image/png"),
        ]
        for c in cases {
            let h = try await Self.harness(Self.images) {
                var t = Self.servedSettings
                t.autoWebP = false
                t.autoPNGToJPG = c.setting
                t.filters.insert("autojpg")
                $0.thumbor = t
            }
            let path = c.filters.isEmpty ? "/unsafe/HOST/a.png" : "/unsafe/filters:\(c.filters)/HOST/a.png"
            let r = await h.get(Self.thumborTarget(path, host: "127.0.0.2:\(h.origin.port)"))
            #expect(
                r.status == 200 && r.header("Content-Type") == c.type,
                "\(c.setting) \(c.filters): \(r.header("Content-Type") ?? "")")
            try await h.finish()
        }
    }
}
