import Testing

@testable import MagpieServer

/// The imgproxy URL grammar and signature, without a server.
@Suite struct ServicePathTests {
    @Test func plainAndBase64SourcesParse() throws {
        let plain = try ServicePath.parse(
            "/sig/rs:fit:300:200/q%3A80/plain/http%3A%2F%2Fexample.com%2Fa%20b.jpg@webp?x=1")
        #expect(plain.signature == "sig" && plain.options == ["rs:fit:300:200", "q:80"])
        #expect(plain.source == "http://example.com/a b.jpg" && plain.ext == "webp")
        #expect(plain.signed == "/rs:fit:300:200/q%3A80/plain/http%3A%2F%2Fexample.com%2Fa%20b.jpg@webp")
        let merged = try ServicePath.parse("/sig/w:10/plain/http:/example.com/a.png")
        #expect(merged.source == "http://example.com/a.png" && merged.ext == nil)
        let encoded = Base64URL.encode(Array("https://example.com/images/cat.jpg".utf8))
        let split = encoded.prefix(10) + "/" + encoded.dropFirst(10)
        let b64 = try ServicePath.parse("/sig/h:50/\(split).png")
        #expect(b64.source == "https://example.com/images/cat.jpg" && b64.ext == "png" && b64.options == ["h:50"])
        let noOptions = try ServicePath.parse("/unsafe/plain/https://example.com/x.jpg")
        #expect(noOptions.options.isEmpty && noOptions.source == "https://example.com/x.jpg")
    }

    @Test(arguments: [
        "", "/", "nosl", "/sig", "/sig/rs:fit:1:1/plain/", "/sig/plain/http://x/a.jpg@toolongext",
        "/sig/plain/http://x/%zz.jpg", "/sig/%%%", "/sig/a.b.c", "/sig/plain/http://x/a.jpg@we-bp",
    ])
    func malformedPathsAreRefused(_ path: String) {
        #expect(throws: ServiceError.malformedPath) { try ServicePath.parse(path) }
    }

    @Test func signaturesMatchImgproxys() throws {
        // imgproxy's documented example key and salt; the expected values come from Python's hmac.
        let key = try #require(
            ServiceConfiguration.SigningKey(
                hexKey: "943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881",
                hexSalt: "520f986b998545b4785e0defbc4f3c1203f22de2374a3d53cb7a7fe9fea309c5"))
        let path = "/rs:fit:300:300/plain/http://img.example.com/pretty/image.jpg"
        #expect(URLSignature.sign(path, with: key) == "m3k5QADfcKPDj-SDI2AIogZbC3FlAXszuwhtWXYqavc")
        #expect(URLSignature.sign(path, with: key, size: 8) == "m3k5QADfcKM")
        let other = try #require(ServiceConfiguration.SigningKey(hexKey: "00ff", hexSalt: ""))
        #expect(URLSignature.verify("m3k5QADfcKM", path: path, keys: [other, key], size: 8), "rotation: any key")
        #expect(!URLSignature.verify("m3k5QADfcKPDj-SDI2AIogZbC3FlAXszuwhtWXYqav", path: path, keys: [key], size: 32))
        #expect(!URLSignature.verify("", path: path, keys: [key], size: 32))
        #expect(ServiceConfiguration.SigningKey(hexKey: "abc", hexSalt: "") == nil)
        #expect(ServiceConfiguration.SigningKey(hexKey: "zz", hexSalt: "") == nil)
    }

    @Test func optionsParseAndNormalise() throws {
        let presets = ["thumb": ["rs:fill:100:100", "q:70"]]
        let o = try ProcessingOptions.parse(
            ["pr:thumb", "g:noea", "dpr:2", "cb:v2", "exp:4102444800"], presets: presets)
        #expect(
            o.resizingType == .fill && o.width == 100 && o.height == 100 && o.quality == 70
                && o.gravity.kind == .compass(.noea))
        #expect(o.variantName == "fill,100x100,dpr2.0,noea,q70,cbv2" && o.expires == 4_102_444_800)
        #expect(try ProcessingOptions.parse(["s:10:20:1", "f:jpeg"], presets: [:]).variantName == "fit,10x20,el,ce")
        // Format names come from the codec table: any case, aliases to one name, only what is written.
        #expect(try ProcessingOptions.parse(["f:JPEG"], presets: [:]).format == "jpg")
        #expect(try ProcessingOptions.parse(["ext:webp"], presets: [:]).format == "webp")
        for bad in [
            ["rs:zoom:1:1"], ["w:-1"], ["w:1x"], ["q:0"], ["q:101"], ["dpr:0"], ["dpr:101"], ["g:up"], ["f:bmp"],
            ["f:tif"],
            ["f:svg"],
            ["f:exe"], ["el:yes"],
            ["pr:missing"], ["unknown:1"], ["rs:fit:1:1:1:2"], ["rs:fit:1:1:1:1:up"], ["w:99999999999999"],
        ] {
            #expect(throws: ServiceError.badOption, "\(bad)") { try ProcessingOptions.parse(bad, presets: presets) }
        }
        // A preset naming itself is skipped where it recurs (imgproxy's loop detection).
        #expect(try ProcessingOptions.parse(["pr:loop"], presets: ["loop": ["w:5", "pr:loop"]]).width == 5)
    }

    /// Paths are read in bytes, as imgproxy's Go reads them. U+070F (a prepended mark) joins the
    /// next character into one grapheme, and U+0301 (a combining one) the one before: a search by
    /// Characters would not see the `/`, `,` or `@` they touch (the path fuzzer found `\u{70F},`
    /// counted as an option with the separator but not split at it).
    @Test func marksBesideADelimiterDoNotHideIt() throws {
        let p = try ServicePath.parse("/\u{70F}/w:10/plain/\u{301}local:///a.jpg@png")
        #expect(p.signature == "\u{70F}" && p.options == ["w:10"])
        #expect(p.source == "\u{301}local:///a.jpg" && p.ext == "png")
        // `\u{301}plain` is not the plain segment, so the rest is base64, which it is not.
        #expect(throws: ServiceError.malformedPath) { try ServicePath.parse("/s/w:1/\u{301}plain/x") }
        var rules = PathRules()
        rules.argumentsSeparator = ","
        #expect(rules.split("\u{70F},w,10").map(String.init) == ["\u{70F}", "w", "10"])
        rules.argumentsSeparator = "\u{301}"
        #expect(rules.split("e\u{301}x").map(String.init) == ["e", "x"] && rules.hasSeparator("e\u{301}"))
        #expect(rules.split("a", maxSplits: 0).map(String.init) == ["a"])
        rules.argumentsSeparator = "::"
        #expect(rules.split("w::1:::2", maxSplits: 1).map(String.init) == ["w", "1:::2"])
        rules.sourceQuerySeparator = "|"
        #expect(rules.separated("s3://b/\u{70F}|v") == "s3://b/\u{70F}?v")
    }

    @Test func aMountedServiceSeesTheTargetAfterItsPrefix() {
        let cases: [(String, String, String?)] = [
            ("/img", "/img/sig/w:10/plain/http://x/a.jpg", "/sig/w:10/plain/http://x/a.jpg"),
            ("/img", "/img", "/"), ("/img", "/img?x=1", "/?x=1"), ("/img", "/imgx/a", nil), ("/img", "/other", nil),
            ("", "/sig/plain/a", "/sig/plain/a"),
        ]
        for (prefix, target, expected) in cases {
            #expect(ServiceRequest(method: "GET", target: target).mounted(at: prefix)?.target == expected, "\(target)")
        }
    }
}
