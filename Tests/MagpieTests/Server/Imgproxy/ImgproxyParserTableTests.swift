import MagpieTestSupport
import Testing

@testable import Magpie
@testable import MagpieServer

/// imgproxy's `options/parser/processing_options_test.go` (v4): the option strings its parser
/// accepts, with what they set, and those it refuses. The cases that need a configuration
/// variable (`ARGUMENTS_SEPARATOR`, `BASE_URL`, `URL_REPLACEMENTS`, the `default` preset,
/// `ONLY_PRESETS`, `ALLOWED_PROCESSING_OPTIONS`, client hints) are issue 54's.
extension ImgproxyTableTests {
    static let presets = [
        "test1": ["resizing_type:fill"], "test2": ["blur:0.2", "quality:50"],
        "loop1": ["resizing_type:fill", "preset:loop2"], "loop2": ["blur:0.2", "preset:loop1"],
    ]

    static func parse(_ path: String) throws -> ProcessingOptions {
        try ProcessingOptions.parse(path.split(separator: "/").map(String.init), presets: presets)
    }

    @Test func parserAcceptsWhatImgproxyAccepts() throws {
        #expect(try Self.parse("format:webp").format == "webp")
        let resize = try Self.parse("resize:fill:100:200:1")
        #expect(resize.resizingType == .fill && resize.width == 100 && resize.height == 200 && resize.enlarge)
        #expect(try Self.parse("resizing_type:fill").resizingType == .fill)
        let size = try Self.parse("size:100:200:1")
        #expect(size.width == 100 && size.height == 200 && size.enlarge)
        #expect(try Self.parse("width:100").width == 100 && (try Self.parse("height:100")).height == 100)
        #expect(try Self.parse("enlarge:1").enlarge)
        let extend = try Self.parse("extend:1:so:10:20").geometry.extend
        #expect(extend?.kind == .compass(.so) && extend?.offsetX == 10 && extend?.offsetY == 20)
        #expect(try Self.parse("gravity:soea").gravity.kind == .compass(.soea))
        #expect(try Self.parse("gravity:fp:0.5:0.75").gravity.kind == .focus(x: 0.5, y: 0.75))
        let crop = try Self.parse("crop:100:200").geometry.crop
        #expect(crop?.width == 100 && crop?.height == 200 && crop?.gravity == nil)
        let placed = try Self.parse("crop:100:200:nowe:10:20").geometry.crop?.gravity
        #expect(placed?.kind == .compass(.nowe) && placed?.offsetX == 10 && placed?.offsetY == 20)
        #expect(try Self.parse("quality:55").quality == 55)
        #expect(try Self.parse("background:128:129:130").effects.background == Color(red: 128, green: 129, blue: 130))
        #expect(try Self.parse("background:ffddee").effects.background == Color(red: 0xFF, green: 0xDD, blue: 0xEE))
        #expect(try Self.parse("background:fff/background:").effects.background == nil)
        #expect(
            try Self.parse("blur:0.2").effects.blur == 0.2 && (try Self.parse("sharpen:0.2")).effects.sharpen == 0.2)
        #expect(try Self.parse("dpr:2").dpr == 2)
        let mark = try Self.parse("watermark:0.5:soea:10:20:0.6").effects.watermark
        #expect(mark?.opacity == 0.5 && mark?.gravity == .soea && mark?.x == 10 && mark?.y == 20 && mark?.scale == 0.6)
        let preset = try Self.parse("preset:test1:test2")
        #expect(preset.resizingType == .fill && preset.effects.blur == 0.2 && preset.quality == 50)
        // A preset naming a preset being expanded is skipped (imgproxy's loop detection).
        let loop = try Self.parse("preset:loop1")
        #expect(loop.resizingType == .fill && loop.effects.blur == 0.2)
        #expect(try Self.parse("cachebuster:123").cacheBuster == "123")
        #expect(try Self.parse("strip_metadata:true").output.stripMetadata == true)
        #expect(try Self.parse("skp:jpg:png").output.skip == ["jpg", "png"])
        #expect(try Self.parse("exp:32503669200").expires == 32_503_669_200)
        let redefined = try Self.parse("width:150/dpr:3.0")
        #expect(redefined.width == 150 && redefined.dpr == 3)
        // Numbers as Go writes them, empty arguments, and the options parsed for nothing here.
        #expect(try Self.parse("dpr:1.000000").dpr == 1 && (try Self.parse("dpr:0.5")).dpr == 0.5)
        let flip = try Self.parse("fl::1").effects
        #expect(!flip.flipHorizontal && flip.flipVertical)
        #expect(try Self.parse("fl:1/fl::1").effects.flipHorizontal, "an empty argument keeps the earlier value")
        #expect(try Self.parse("ph:1").output.preservesHDR == true)
        #expect(try Self.parse("bl:.5").effects.blur == 0.5 && (try Self.parse("z:1e0")).geometry.zoomX == 1)
    }

    @Test func parserRefusesWhatImgproxyRefuses() throws {
        for refused in [
            "extend:1:sm", "extend:1:re", "gravity:re", "crop:100:200:re", "skp:jpg:png:bad_format", "dpr:0",
            "dpr:-1", "dpr:NaN", "dpr:inf", "dpr:0x1p1", "dpr:1_0", "dpr:1e99999", "w:1.5",
        ] {
            #expect(throws: ServiceError.self, "\(refused)") { try Self.parse(refused) }
        }
    }
}
