import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie
@testable import MagpieServer

/// thumbor's URLs through the service, held to thumbor 7.8's own answers
/// (`Tests/fixtures/thumbor/served.json`, written by `scripts/thumbor-served.py` from a real
/// thumbor server over sources of the same sizes, formats and transparency as these).
extension ImageServiceTests {
    struct Served: Decodable {
        struct Row: Decodable {
            let path: String
            let accept: String?
            let status: Int
            let type: String?
            let cacheControl: String?
            let vary: String?
            let size: [Int]?
            let mode: String?
            let transparent: Bool?
            let progressive: Bool?
            let body: String?
        }
        let thumbor: String
        let urls: [Row]
    }

    /// The fixture's configuration (its `conf`) as settings.
    static var servedSettings: ThumborSettings {
        var t = ThumborSettings()
        (t.securityKey, t.autoWebP, t.maxAge) = ("MY_KEY", true, 3600)
        return t
    }

    static func thumborTarget(_ path: String, host: String) -> String {
        let target = path.replacingOccurrences(of: "HOST", with: host)
        guard target.hasPrefix("signed:/") else { return target }
        let unsigned = String(target.dropFirst("signed:/".count))
        return "/" + ThumborSignature.sign(unsigned, key: "MY_KEY") + "/" + unsigned
    }

    @Test func thumborsURLsAreAnsweredAsThumborAnswersThem() async throws {
        let table = try #require(ThumborTables.load("served.json", as: Served.self))
        #expect(table.thumbor == "7.8.0" && table.urls.count >= 48)
        let h = try await Self.harness(Self.images) { $0.thumbor = Self.servedSettings }
        let host = "127.0.0.2:\(h.origin.port)"
        for row in table.urls {
            let headers = row.accept.map { [(name: "Accept", value: $0)] } ?? []
            let r = await h.get(Self.thumborTarget(row.path, host: host), headers: headers)
            let what = "\(row.path) (Accept: \(row.accept ?? "-"))"
            // Where thumbor raises (its 500: a colour Pillow does not know, say), Magpie refuses the
            // request (400), on purpose (docs/thumbor.md).
            #expect(r.status == (row.status == 500 ? 400 : row.status), "\(what): \(r.status)")
            guard row.status == 200, r.status == 200 else { continue }
            #expect(r.header("Content-Type") == row.type, "\(what): \(r.header("Content-Type") ?? "")")
            #expect(r.header("Cache-Control") == row.cacheControl, "\(what): \(r.header("Cache-Control") ?? "")")
            #expect(r.header("Vary") == row.vary, "\(what): \(r.header("Vary") ?? "")")
            if let body = row.body {
                // meta: the same document, numbers compared as numbers (thumbor writes some as
                // 48.0), and thumbor's Python-bytes callback (b'fn') as the name it was given.
                let quoted = ThumborQuoting.quote(host, safe: "")
                var theirs = body.replacingOccurrences(of: "HOST", with: quoted)
                if theirs.hasPrefix("b'"), let end = theirs.firstIndex(of: "(") {
                    theirs = String(theirs.dropFirst(2).prefix { $0 != "'" }) + theirs[end...]
                }
                let mine = String(decoding: r.body, as: UTF8.self)
                let json = row.type == "application/json" || row.type == "text/javascript"
                #expect(json ? Self.sameDocument(mine, theirs) : mine == theirs, "\(what): \(mine)")
            }
            if let size = row.size {
                let info = try ImageInfo(probing: r.body)
                #expect([info.width, info.height] == size, "\(what): \(info.width)x\(info.height)")
                if let t = row.transparent { #expect(try Image(decoding: r.body).hasAlpha == t, "\(what): alpha") }
                if let p = row.progressive {
                    #expect(ImageFormatNamesTests.jpegFrame(r.body).0 == (p ? 0xC2 : 0xC0), "\(what): progressive \(p)")
                }
            }
        }
        try await h.finish()
    }

    /// The pixels follow thumbor's geometry: a flip mirrors, a manual crop is the region asked
    /// for, and `left/top` keeps the source's top left corner.
    @Test func thumborsCropsAndFlipsTakeTheRightPixels() async throws {
        let h = try await Self.harness(Self.images) { $0.thumbor = Self.servedSettings }
        let host = "127.0.0.2:\(h.origin.port)"
        func image(_ path: String) async throws -> Image {
            let r = await h.get(Self.thumborTarget(path, host: host))
            #expect(r.status == 200, "\(path)")
            return try Image(decoding: r.body)
        }
        let source = try Image(decoding: NetFixture.jpeg)
        let plain = try await image("/unsafe/96x64/filters:format(png)/HOST/a.jpg")
        let flipped = try await image("/unsafe/-96x-64/filters:format(png)/HOST/a.jpg")
        let crop = try await image("/unsafe/10x10:58x42/filters:format(png)/HOST/a.jpg")
        let corner = try await image("/unsafe/30x64/left/top/filters:format(png)/HOST/a.jpg")
        for (x, y) in [(0, 0), (95, 0), (40, 30), (95, 63)] {
            #expect(Self.near(plain, (x, y), flipped, (95 - x, 63 - y)), "flip at \(x),\(y)")
        }
        for (x, y) in [(0, 0), (47, 31), (20, 10)] {
            #expect(Self.near(crop, (x, y), source, (10 + x, 10 + y)), "crop at \(x),\(y)")
            #expect(Self.near(corner, (x % 30, y), source, (x % 30, y)), "left at \(x),\(y)")
        }
        try await h.finish()
    }

    /// Whether pixel `a` of `x` and pixel `b` of `y` are within 24 of each other in every channel.
    static func near(_ x: Image, _ a: (Int, Int), _ y: Image, _ b: (Int, Int)) -> Bool {
        let i = (a.1 * x.width + a.0) * 4
        let j = (b.1 * y.width + b.0) * 4
        return (0..<3).allSatisfy { abs(Int(x.pixels[i + $0]) - Int(y.pixels[j + $0])) <= 24 }
    }

    /// With `--path-prefix`, imgproxy's URLs under it and thumbor's everywhere else: which grammar
    /// a path is read with follows from the path alone.
    @Test func imgproxysURLsLiveUnderThePrefixBesideThumbors() async throws {
        let h = try await Self.harness(Self.images) {
            $0.thumbor = Self.servedSettings
            $0.paths.prefix = "/imgproxy"
        }
        let host = "127.0.0.2:\(h.origin.port)"
        let imgproxy = await h.get("/imgproxy" + h.target("rs:fit:48:32", "/a.jpg"))
        #expect(imgproxy.status == 200 && imgproxy.header("Cache-Control")?.hasPrefix("public, max-age=") == true)
        let thumbor = await h.get(Self.thumborTarget("/unsafe/48x32/HOST/a.jpg", host: host))
        #expect(thumbor.status == 200 && thumbor.header("Cache-Control") == "max-age=3600,public")
        // An imgproxy path outside the prefix is thumbor's, and not a valid one there.
        #expect(await h.get(h.target("rs:fit:48:32", "/a.jpg")).status == 400)
        #expect(await h.get("/imgproxy/health").status == 200)
        #expect(String(decoding: await h.get("/healthcheck").body, as: UTF8.self) == "WORKING")
        try await h.finish()
    }

    /// What the settings refuse: `unsafe` when ALLOW_UNSAFE_URL is off, a host ALLOWED_SOURCES
    /// does not list (by name, or by a legacy pattern), a signature under another key.
    @Test func thumborsSettingsRefuseWithItsStatus() async throws {
        let h = try await Self.harness(Self.images) {
            var t = Self.servedSettings
            t.allowsUnsafe = false
            t.allowedSources = ["example.com", "127\\.0\\.0\\.[0-9]+"]
            $0.thumbor = t
        }
        let host = "127.0.0.2:\(h.origin.port)"
        #expect(await h.get(Self.thumborTarget("/unsafe/48x32/HOST/a.jpg", host: host)).status == 400)
        #expect(await h.get(Self.thumborTarget("signed:/48x32/HOST/a.jpg", host: host)).status == 200)
        let other = "/" + ThumborSignature.sign("48x32/\(host)/a.jpg", key: "other") + "/48x32/\(host)/a.jpg"
        #expect(await h.get(other).status == 400)
        try await h.finish()
        #expect(
            ImageService.allows("example.com", "example.com") && !ImageService.allows("example.com", "a.example.com"))
        #expect(
            ImageService.allows(".+\\.example\\.com", "a.example.com")
                && !ImageService.allows(".+\\.example\\.com", "example.com"))
        #expect(throws: ServiceError.sourceDenied) {
            var t = ThumborSettings()
            t.allowedSources = ["example.com"]
            _ = try ImageService.thumborSource("other.com/a.jpg", t)
        }
        var files = ThumborSettings()
        files.loadsFiles = true
        #expect(try ImageService.thumborSource("/photos/a%20b.jpg", files) == "local:///photos/a%20b.jpg")
        #expect(
            try ImageService.thumborSource("example.com/a%20b.jpg", ThumborSettings()) == "http://example.com/a%20b.jpg"
        )
        #expect(
            try ImageService.thumborSource("https://example.com/a b.jpg", ThumborSettings())
                == "https://example.com/a%20b.jpg")
    }

    /// Whether two JSON (or JSONP `name(…);`) documents say the same: the same callback, and
    /// the same values, numbers as numbers.
    static func sameDocument(_ a: String, _ b: String) -> Bool {
        func split(_ s: String) -> (String, String) {
            guard !s.hasPrefix("{"), let open = s.firstIndex(of: "("), s.hasSuffix(");") else { return ("", s) }
            return (String(s[..<open]), String(s[s.index(after: open)..<s.index(s.endIndex, offsetBy: -2)]))
        }
        let (ca, ja) = split(a)
        let (cb, jb) = split(b)
        guard ca == cb, let x = try? JSONSerialization.jsonObject(with: Data(ja.utf8)),
            let y = try? JSONSerialization.jsonObject(with: Data(jb.utf8))
        else { return false }
        return normalized(x) == normalized(y)
    }

    static func normalized(_ v: Any) -> String {
        if let d = v as? [String: Any] {
            return "{" + d.keys.sorted().map { "\($0):\(normalized(d[$0]!))" }.joined(separator: ",") + "}"
        }
        if let a = v as? [Any] { return "[" + a.map(normalized).joined(separator: ",") + "]" }
        if let s = v as? String { return "\"" + s + "\"" }
        if let n = v as? NSNumber { return String(n.doubleValue) }
        return "\(v)"
    }
}
