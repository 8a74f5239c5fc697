import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie

/// What a hostile origin answers: redirects out of http(s), impossible ports, redirects that try
/// to carry the caller's credentials to another origin.
@Suite struct HostileOriginTests {
    @Test func redirectsNeverLeaveHTTP() async throws {
        let dir = try TemporaryDirectory()
        let photo = dir.path("photo.png")
        try Data(NetFixture.png).write(to: URL(fileURLWithPath: photo))
        try await withServer({ request in
            switch request.path {
            case "/existing": return .respond(status: 302, headers: [("Location", "file://" + photo)])
            case "/missing": return .respond(status: 302, headers: [("Location", "file:///no/such/place.png")])
            case "/directory": return .respond(status: 301, headers: [("Location", "file:///etc/")])
            case "/ftp": return .respond(status: 307, headers: [("Location", "ftp://127.0.0.1/a.png")])
            case "/data": return .respond(status: 308, headers: [("Location", "data:image/png;base64,iVBORw0KGgo=")])
            case "/fine.png": return .ok(NetFixture.png, contentType: "image/png")
            default: return .respond(status: 404)
            }
        }) { server in
            let harness = try PipelineHarness()
            let downloader = harness.manager.downloader
            // One error, whatever the target: the origin cannot tell whether a path exists.
            var messages: Set<String> = []
            for (path, status) in [("/existing", 302), ("/missing", 302), ("/directory", 301)] {
                do {
                    _ = try await downloader.download(NetFixture.url(server, path))
                    Issue.record("\(path): a redirect to a local file was followed")
                } catch let error as ImageDownloadError {
                    #expect(error == .redirectNotAllowed(status: status))
                    messages.insert(error.description.replacingOccurrences(of: String(status), with: ""))
                }
            }
            #expect(messages.count == 1)
            for (path, status) in [("/ftp", 307), ("/data", 308)] {
                await #expect(throws: ImageDownloadError.redirectNotAllowed(status: status)) {
                    try await downloader.download(NetFixture.url(server, path))
                }
            }
            // A redirect handler cannot lead there either.
            let toFile: @Sendable (DataResponse, DataRequest) async -> DataRequest? = { _, next in
                var next = next
                next.url = URL(fileURLWithPath: photo)
                return next
            }
            await #expect(throws: ImageDownloadError.redirectNotAllowed(status: 302)) {
                try await downloader.download(
                    NetFixture.url(server, "/existing"), options: .init(redirectHandler: toFile))
            }
            // The pipeline caches nothing under the http URL.
            let manager = harness.manager
            await #expect(throws: ImageRetrieveError.loadingFailed(.redirectNotAllowed(status: 302))) {
                _ = try await manager.retrieveImage(with: .network(NetFixture.url(server, "/existing")))
            }
            #expect(harness.cache.imageCachedType(forKey: NetFixture.url(server, "/existing").absoluteString) == .none)
            // A file URL given directly is still served, and redirects within http(s) still work.
            let direct = try await downloader.download(URL(fileURLWithPath: photo))
            #expect(direct.data == NetFixture.png)
            #expect(try await downloader.download(NetFixture.url(server, "/fine.png")).data == NetFixture.png)
            try await harness.finish()
        }
    }

    @Test func portsOutsideTheRangeAreInvalid() async throws {
        let downloader = ImageDownloader()
        for text in [
            "http://127.0.0.1:99999/", "http://localhost:65536/a.png", "http://[::1]:70000/",
            "https://example.com:99999999999999999999999/x",
        ] {
            let url = try #require(URL(string: text))
            await #expect(throws: ImageDownloadError.invalidURL(text)) { try await downloader.download(url) }
        }
        // The range's ends are fine as URLs (port 65535 on loopback refuses, as it should).
        #expect(try ImageDownloader.normalized(URL(string: "http://h:65535/")!).port == 65535)
        #expect(try ImageDownloader.normalized(URL(string: "http://h:/a")!).host == "h")
        try await withServer({ request in
            switch request.path {
            case "/ip": return .respond(status: 302, headers: [("Location", "http://127.0.0.1:99999/")])
            case "/name": return .respond(status: 302, headers: [("Location", "http://localhost:99999/x")])
            case "/v6": return .respond(status: 302, headers: [("Location", "//[::1]:70000/")])
            default: return .respond(status: 404)
            }
        }) { server in
            await #expect(throws: ImageDownloadError.invalidURL("http://127.0.0.1:99999/")) {
                try await downloader.download(NetFixture.url(server, "/ip"))
            }
            await #expect(throws: ImageDownloadError.invalidURL("http://localhost:99999/x")) {
                try await downloader.download(NetFixture.url(server, "/name"))
            }
            await #expect(throws: ImageDownloadError.invalidURL("http://[::1]:70000/")) {
                try await downloader.download(NetFixture.url(server, "/v6"))
            }
        }
        try await downloader.shutdown()
    }

    @Test func credentialsNeverFollowAChangeOfOrigin() async throws {
        let seen = Recorder<(String, [String: String])>()
        let names = ["authorization", "proxy-authorization", "cookie", "x-api-key", "x-trace"]
        let target = try await LoopbackServer { request in
            var fields: [String: String] = [:]
            for name in names { if let v = request.header(name) { fields[name] = v } }
            seen.add((request.path, fields))
            return .ok(NetFixture.png, contentType: "image/png")
        }
        defer { Task { try? await target.shutdown() } }
        try await withServer({ request in
            var fields: [String: String] = [:]
            for name in names { if let v = request.header(name) { fields[name] = v } }
            seen.add((request.path, fields))
            switch request.path {
            // Same host, another port: another origin.
            case "/other-port": return .respond(status: 302, headers: [("Location", target.baseURL + "/p.png")])
            // Same port, another host name for the same address: another origin.
            case "/other-host":
                return .respond(status: 302, headers: [("Location", "http://localhost:\(target.port)/h.png")])
            case "/same-origin": return .respond(status: 301, headers: [("Location", "/s.png")])
            case "/s.png": return .ok(NetFixture.png, contentType: "image/png")
            default: return .respond(status: 404)
            }
        }) { server in
            let downloader = ImageDownloader(config: .init(sensitiveHeaders: ["X-Api-Key"]))
            let headers: [HTTPHeaderField] = [
                .init("Authorization", "Bearer secret"), .init("Proxy-Authorization", "Basic cHJveHk="),
                .init("Cookie", "session=1"), .init("X-Api-Key", "k"), .init("X-Trace", "t"),
            ]
            for path in ["/other-port", "/other-host", "/same-origin"] {
                _ = try await downloader.download(NetFixture.url(server, path), options: .init(headers: headers))
            }
            let byPath = Dictionary(seen.all.map { ($0.0, $0.1) }, uniquingKeysWith: { a, _ in a })
            let all = ["authorization", "proxy-authorization", "cookie", "x-api-key", "x-trace"]
            #expect(byPath["/other-port"].map { Set($0.keys) } == Set(all))
            #expect(byPath["/p.png"] == ["x-trace": "t"])
            #expect(byPath["/h.png"] == ["x-trace": "t"])
            // Within one origin the credentials stay (the caller sent them there).
            #expect(byPath["/s.png"].map { Set($0.keys) } == Set(all))
            try await downloader.shutdown()
        }
    }

    @Test func redirectResolutionRules() throws {
        let base = URL(string: "https://a.example/x/y")!
        #expect(
            try WebURL.redirectTarget(status: 302, location: "/z", from: base).absoluteString == "https://a.example/z")
        #expect(
            try WebURL.redirectTarget(status: 302, location: "HTTP://B.example:80/q#f", from: base).absoluteString
                == "http://b.example/q")
        for location in ["file:///etc/passwd", "javascript:alert(1)", "gopher://x/", "data:,x"] {
            #expect(throws: ImageDownloadError.redirectNotAllowed(status: 302)) {
                try WebURL.redirectTarget(status: 302, location: location, from: base)
            }
        }
        // https → http and a default port written out are the same or another origin as they should be.
        #expect(WebURL.sameOrigin(URL(string: "https://a/")!, URL(string: "https://a:443/b")!))
        #expect(!WebURL.sameOrigin(URL(string: "https://a/")!, URL(string: "http://a/")!))
        #expect(!WebURL.sameOrigin(URL(string: "http://a:8080/")!, URL(string: "http://a:8081/")!))
    }
}

/// `magpie fetch --out` with names an origin chose.
@Suite struct FetchOutputNameTests {
    @Test func namesStayInsideTheFolderAndPrintNoControlCharacters() async throws {
        let dir = try TemporaryDirectory()
        let out = dir.path("a/b/out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try await withServer({ _ in .ok(NetFixture.jpeg, contentType: "image/jpeg") }) { server in
            let paths = [
                "/x/..%2F..%2Fescaped.png", "/y/%0Aforged%0Dline%1B%5B2J.jpg", "/z/-rf.jpg", "/w/.hidden.jpg",
                "/v/" + String(repeating: "long", count: 100) + ".jpg", "/",
            ]
            let urls = paths.map { server.baseURL + $0 }
            let stems = [
                "_.._escaped", "_forged_line_[2J", "rf", "hidden", String(repeating: "long", count: 20), "image",
            ]
            let expected = zip(urls, stems).map { url, stem in "\(stem)-\(CacheKeys.md5Hex(url).prefix(8)).jpg" }
            let victim = dir.path("victim.txt")
            try Data("keep".utf8).write(to: URL(fileURLWithPath: victim))
            try FileManager.default.createSymbolicLink(atPath: out + "/" + expected[2], withDestinationPath: victim)
            let result = try await CLI.runAsync(["fetch"] + urls + ["--out", out, "--cache-dir", dir.path("cache")])
            #expect(result.status == 0, "\(result.stderr)")
            // Nothing above the folder, nothing through the link.
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path("a")) == ["b"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path("a/b")) == ["out"])
            #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep")
            let names = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
            #expect(names == expected.sorted())
            let planted = try FileManager.default.attributesOfItem(atPath: out + "/" + expected[2])
            #expect(planted[.type] as? FileAttributeType == .typeRegular)
            // One line per URL: the newline, carriage return and ESC in a URL are escaped.
            let lines = result.stdout.split(separator: "\n")
            #expect(lines.count == paths.count + 1, "\(result.stdout)")
            #expect(!result.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x0D })
        }
    }
}

/// One user's private image must never reach another through the caches.
@Suite struct CredentialKeyedCacheTests {
    static func privateServer(_ request: LoopbackRequest) -> LoopbackReply {
        let expected = [
            "/private.png": "Bearer alice",
            "/basic.png": "Basic " + Data("alice:s3cret pass".utf8).base64EncodedString(),
        ]
        guard let want = expected[request.path] else { return .ok(NetFixture.png, contentType: "image/png") }
        return request.header("Authorization") == want
            ? .ok(NetFixture.png, contentType: "image/png") : .respond(status: 401)
    }

    @Test func differentCredentialsNeverShareAnEntry() async throws {
        try await withServer(Self.privateServer) { server in
            let harness = try PipelineHarness()
            let url = NetFixture.url(server, "/private.png")
            func options(_ auth: String?) -> ImageOptions {
                var o = ImageOptions()
                if let auth { o.request.headers = [.init("Authorization", auth)] }
                return o
            }
            let alice = try await harness.manager.retrieveImage(with: .network(url), options: options("Bearer alice"))
            #expect(alice.cacheType == .none)
            // Bob and an anonymous caller reach the origin, which refuses them.
            for other in ["Bearer bob", nil] {
                await #expect(throws: ImageRetrieveError.loadingFailed(.badStatus(code: 401, retryAfter: nil))) {
                    _ = try await harness.manager.retrieveImage(with: .network(url), options: options(other))
                }
            }
            #expect(server.requestCount("/private.png") == 3)
            // Alice again: from memory.
            let again = try await harness.manager.retrieveImage(with: .network(url), options: options("Bearer alice"))
            #expect(again.cacheType == .memory)
            let keyA = harness.manager.cacheKey(for: .network(url), options: options("Bearer alice"))
            let keyB = harness.manager.cacheKey(for: .network(url), options: options("Bearer bob"))
            #expect(keyA != keyB && keyA.hasPrefix(url.absoluteString + "#credentials="))
            #expect(!keyA.contains("alice") && !keyB.contains("bob"))
            #expect(harness.manager.cacheKey(for: .network(url)) == url.absoluteString)
            await harness.cache.shutdown()
            // A second manager over the same folder (the next process) finds Alice's entry on disk
            // under the same keyed digest; Bob still does not.
            let second = try PipelineHarness(dir: harness.dir, clock: harness.clock)
            #expect(second.manager.cacheKey(for: .network(url), options: options("Bearer alice")) == keyA)
            let fromDisk = try await second.manager.retrieveImage(with: .network(url), options: options("Bearer alice"))
            #expect(fromDisk.cacheType == .disk)
            await #expect(throws: ImageRetrieveError.loadingFailed(.badStatus(code: 401, retryAfter: nil))) {
                _ = try await second.manager.retrieveImage(with: .network(url), options: options("Bearer bob"))
            }
            try await harness.finish()
            try await second.finish()
        }
    }

    @Test func userInfoBecomesBasicAuthAndNeverReachesTheDisk() async throws {
        try await withServer(Self.privateServer) { server in
            let harness = try PipelineHarness()
            let withUser = URL(string: "http://alice:s3cret%20pass@127.0.0.1:\(server.port)/basic.png")!
            let result = try await harness.manager.retrieveImage(with: .network(withUser))
            #expect(result.image.width == 40)
            await #expect(throws: ImageRetrieveError.loadingFailed(.badStatus(code: 401, retryAfter: nil))) {
                _ = try await harness.manager.retrieveImage(with: .network(NetFixture.url(server, "/basic.png")))
            }
            let key = harness.manager.cacheKey(for: .network(withUser))
            #expect(key.hasPrefix(server.baseURL + "/basic.png#credentials=") && !key.contains("alice"))
            await harness.cache.shutdown()
            let folder = harness.dir.path("cache")
            var files = 0
            // Every file, the index (where the entry is a row) and its log among them.
            for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name != ".magpie-tmp" {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
                files += 1
                #expect(bytes.range(of: Data("s3cret".utf8)) == nil, "\(name) holds the password")
                #expect(bytes.range(of: Data("alice".utf8)) == nil, "\(name) holds the user")
            }
            #expect(files >= 3)  // marker, key, the index holding the entry
            try await harness.finish()
        }
    }

    @Test func aHostCanBeDeclaredCredentialIndependent() async throws {
        try await withServer({ _ in .ok(NetFixture.png, contentType: "image/png") }) { server in
            let harness = try PipelineHarness(filter: CacheKeyFilter(credentialIndependentHosts: ["127.0.0.1"]))
            let url = NetFixture.url(server, "/public.png")
            var alice = ImageOptions()
            alice.request.headers = [.init("Cookie", "session=alice")]
            var bob = ImageOptions()
            bob.request.headers = [.init("Cookie", "session=bob")]
            _ = try await harness.manager.retrieveImage(with: .network(url), options: alice)
            let shared = try await harness.manager.retrieveImage(with: .network(url), options: bob)
            #expect(shared.cacheType == .memory && server.requestCount("/public.png") == 1)
            #expect(harness.manager.cacheKey(for: .network(url), options: bob) == url.absoluteString)
            try await harness.finish()
        }
    }
}
