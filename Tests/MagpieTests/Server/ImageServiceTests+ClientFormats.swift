import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie
@testable import MagpieServer

/// imgproxy's `clientfeatures/detector_test.go` (the WebP, AVIF and JPEG XL cases and the client
/// hints), then the formats and hints through the service:
/// `--enforce-*`, `--preferred-format`, `--client-hints` and the `Vary` each sends.
extension ImageServiceTests {
    static func features(_ configure: (inout ServiceConfiguration) -> Void, _ headers: [(String, String)])
        -> ClientFeatures
    {
        var c = ServiceConfiguration()
        configure(&c)
        return ClientFeatures(ServiceRequest(method: "GET", target: "/", headers: headers), c)
    }

    @Test func imgproxysClientFeatureDetectorCases() throws {
        let webp = [("Accept", "image/webp,image/apng,image/*,*/*;q=0.8")]
        let avif = [("Accept", "image/avif,image/apng,image/*,*/*;q=0.8")]
        let neither = [("Accept", "image/apng,image/*,*/*;q=0.8")]
        var f = Self.features({ $0.autoWebP = true }, webp)
        #expect(f.preferWebP && !f.enforceWebP)
        #expect(Self.features({ $0.autoWebP = true }, neither) == ClientFeatures())
        f = Self.features({ $0.enforceWebP = true }, webp)
        #expect(f.preferWebP && f.enforceWebP)
        #expect(Self.features({ $0.enforceWebP = true }, neither) == ClientFeatures())
        if ImageFormat.avif.isEncodable {
            f = Self.features({ $0.autoAVIF = true }, avif)
            #expect(f.preferAVIF && !f.enforceAVIF && !f.preferWebP)
            f = Self.features({ $0.enforceAVIF = true }, avif)
            #expect(f.preferAVIF && f.enforceAVIF)
            #expect(Self.features({ $0.enforceAVIF = true }, neither) == ClientFeatures())
        }
        if ImageFormat.jxl.isEncodable {
            let jxl = [("Accept", "image/jxl,image/apng,image/*,*/*;q=0.8")]
            f = Self.features({ $0.autoJXL = true }, jxl)
            #expect(f.preferJXL && !f.enforceJXL && !f.preferAVIF && !f.preferWebP)
            #expect(Self.features({ $0.autoJXL = true }, neither) == ClientFeatures())
            f = Self.features({ $0.enforceJXL = true }, jxl)
            #expect(f.preferJXL && f.enforceJXL)
            #expect(Self.features({ $0.enforceJXL = true }, neither) == ClientFeatures())
        }
        #expect(Self.features({ _ in }, [("Accept", "image/webp,image/avif,image/jxl")]) == ClientFeatures())
        // DPR: Sec-CH-DPR before DPR; above 0 and at most 8; off without client hints.
        for (headers, dpr) in [
            ([("DPR", "1.5")], 1.5), ([("Sec-CH-DPR", "2.0")], 2.0), ([("DPR", "3.0"), ("Sec-CH-DPR", "2.5")], 2.5),
            ([("DPR", "-1.0")], nil), ([("DPR", "10.0")], nil), ([("DPR", "abc")], nil),
        ] as [([(String, String)], Double?)] {
            #expect(Self.features({ $0.clientHints = true }, headers).dpr == dpr, "\(headers)")
        }
        #expect(Self.features({ _ in }, [("DPR", "2.0"), ("Sec-CH-DPR", "3.0")]).dpr == nil)
        for (headers, width) in [
            ([("Width", "800")], 800), ([("Sec-CH-Width", "1024")], 1024),
            ([("Width", "1280"), ("Sec-CH-Width", "1440")], 1440), ([("Width", "-800")], nil),
            ([("Width", "abc")], nil),
        ] as [([(String, String)], Int?)] {
            #expect(Self.features({ $0.clientHints = true }, headers).width == width, "\(headers)")
        }
        #expect(Self.features({ _ in }, [("Width", "800"), ("Sec-CH-Width", "1024")]).width == nil)
        // imgproxy's TestParsePathClientHints: width 100 at DPR 2 is w 50 at dpr 2; the URL's win.
        var hints = ClientFeatures()
        (hints.width, hints.dpr) = (100, 2)
        let o = try ProcessingOptions.parse([], presets: [:], hints: hints)
        #expect(o.width == 50 && o.dpr == 2)
        let redefined = try ProcessingOptions.parse(["width:150", "dpr:3.0"], presets: [:], hints: hints)
        #expect(redefined.width == 150 && redefined.dpr == 3)
    }

    @Test func enforcedFormatsClientHintsAndTheirVary() async throws {
        let h = try await Self.harness(Self.images) {
            $0.enforceWebP = true
            $0.clientHints = true
        }
        let named = await h.get(h.target("w:30", "/a.jpg", ext: "png"), headers: [("Accept", "image/webp")])
        #expect(named.header("Content-Type") == "image/webp", "--enforce-webp replaces the format named")
        #expect(named.header("Vary") == "Accept, Sec-CH-DPR, DPR, Sec-CH-Width, Width")
        let plain = await h.get(h.target("w:30", "/a.jpg", ext: "png"), headers: [("Accept", "image/png")])
        #expect(plain.header("Content-Type") == "image/png")
        let hinted = await h.get(h.target("", "/a.jpg"), headers: [("Sec-CH-Width", "40"), ("Sec-CH-DPR", "2")])
        #expect(try Image(decoding: hinted.body).width == 40, "width 40 device pixels: w 20 at dpr 2")
        let overridden = await h.get(h.target("w:30", "/a.jpg"), headers: [("Sec-CH-Width", "40"), ("DPR", "2")])
        #expect(try Image(decoding: overridden.body).width == 60, "the URL's w, at the hint's DPR")
        try await h.finish()
    }

    @Test func preferredFormatsChooseWhereTheRequestNamesNone() async throws {
        let alpha = try Image(
            width: 40, height: 20, rgba: Array(repeating: [9, 200, 9, 128], count: 800).flatMap { $0 })
        let png = try alpha.encoded(as: .png())
        let animations = try Self.animations()
        let h = try await Self.harness({ request in
            request.path == "/alpha.png" ? .ok(png, contentType: "image/png") : await animations(request)
        }) { $0.preferredFormats = ["jpg", "webp"] }
        let still = await h.get(h.target("w:20", "/alpha.png"))
        #expect(still.header("Content-Type") == "image/webp", "PNG is not preferred; JPEG has no alpha")
        let named = await h.get(h.target("w:20", "/alpha.png", ext: "png"))
        #expect(named.header("Content-Type") == "image/png", "a named format is kept")
        if EncodingFormat.gif().animates {
            let animated = await h.get(h.target("w:20", "/a.gif"))
            #expect(animated.header("Content-Type") == "image/webp")
            #expect(try Image(decoding: animated.body).frames.count == 6)
        }
        try await h.finish()
    }
}

/// `IMGPROXY_WEBP_EFFORT`: libwebp's method for WebP results, stills and animations.
extension ImageServiceTests {
    @Test func theWebPEffortIsLibwebpsMethod() async throws {
        var bodies: [[UInt8]] = []
        for effort in [1, 6] {
            let h = try await Self.harness(Self.images) { $0.webpEffort = effort }
            let r = await h.get(h.target("w:64", "/a.jpg", ext: "webp"))
            #expect(r.status == 200 && r.header("Content-Type") == "image/webp")
            #expect(try Image(decoding: r.body).width == 64)
            bodies.append(r.body)
            try await h.finish()
        }
        #expect(bodies[0] != bodies[1], "method 1 and method 6 write different bytes")
        let pixel = try Image(width: 1, height: 1, rgba: [0, 0, 0, 255])
        #expect(
            OutputSerializer(format: "webp", quality: 80, encoders: EncoderSettings(webpMethod: 6))
                .encoding(for: pixel, original: nil) == .webp(quality: 80, method: 6))
    }
}
