import Foundation
import MagpieLoopback
import MagpieTestSupport
import Synchronization
import Testing

@testable import Magpie
@testable import MagpieServer

/// The service over a real origin on 127.0.0.2 ("another host", allowed by network), with a
/// real cache in a temporary folder.
@Suite struct ImageServiceTests {
    static let key = ServiceConfiguration.SigningKey(key: Array("secret".utf8), salt: Array("salt".utf8))

    struct Harness {
        let dir: TemporaryDirectory
        let service: ImageService
        let origin: LoopbackServer

        func url(_ path: String) -> String { "http://127.0.0.2:\(origin.port)\(path)" }

        /// A signed request target for `options` and the source at `path`.
        func target(_ options: String, _ path: String, ext: String? = nil) -> String {
            target(options, source: url(path), ext: ext)
        }

        /// A signed target for any source URL (`local:///a.png`).
        func target(_ options: String, source: String, ext: String? = nil) -> String {
            let signed = "/\(options.isEmpty ? "" : options + "/")plain/\(source)" + (ext.map { "@\($0)" } ?? "")
            return "/" + URLSignature.sign(signed, with: ImageServiceTests.key) + signed
        }

        func get(_ target: String, method: String = "GET", headers: [(name: String, value: String)] = []) async
            -> ServiceResponse
        {
            await service.respond(to: ServiceRequest(method: method, target: target, headers: headers))
        }

        func finish() async throws {
            await service.manager.cache.shutdown()
            try await service.manager.downloader.shutdown()
            try await origin.shutdown()
        }
    }

    static func harness(
        _ handler: @escaping LoopbackServer.Handler, downloadTimeout: Duration = .seconds(10),
        _ configure: (inout ServiceConfiguration) -> Void = { _ in },
        download configureDownload: (inout ImageDownloader.Config) -> Void = { _ in },
        transports: [String: any DataLoading] = [:],
        now: @escaping @Sendable () -> Double = { 2_000_000_000 }, clock: ManualClock? = nil
    ) async throws -> Harness {
        let dir = try TemporaryDirectory()
        let origin = try await LoopbackServer(host: "127.0.0.2", handler: handler)
        var download = ImageDownloader.Config(timeout: downloadTimeout, connectTimeout: .seconds(3))
        download.addressPolicy = try AddressPolicy.publicOnly.allowing(networks: ["127.0.0.2/32"])
        configureDownload(&download)
        let cache = try ImageCache(
            memory: .init(cleanInterval: nil), disk: .init(directory: dir.path("cache"), sweepInterval: nil),
            clock: clock ?? SystemCacheClock())
        let manager = ImageManager(cache: cache, downloader: ImageDownloader(config: download, transports: transports))
        var configuration = ServiceConfiguration()
        configuration.keys = [key]
        configure(&configuration)
        let now = clock.map { c in { @Sendable in c.now().timeIntervalSince1970 } } ?? now
        return Harness(
            dir: dir, service: ImageService(manager: manager, configuration: configuration, now: now),
            origin: origin)
    }

    static let images: LoopbackServer.Handler = { request in
        switch request.path {
        case "/a.jpg": return .ok(NetFixture.jpeg, contentType: "image/jpeg")
        case "/a.png": return .ok(NetFixture.png, contentType: "image/png")
        case "/text": return .ok(Array("hello".utf8), contentType: "text/plain")
        case "/gone": return .respond(status: 410)
        case "/broken": return .respond(status: 503)
        default: return .respond(status: 404)
        }
    }

    @Test func aSignedRequestIsProcessedCachedAndRevalidatedByETag() async throws {
        let h = try await Self.harness(Self.images)
        let target = h.target("rs:fit:48:48", "/a.jpg")
        let first = await h.get(target, headers: [("X-Request-ID", "req-1")])
        #expect(first.status == 200, "\(String(decoding: first.body, as: UTF8.self))")
        #expect(first.header("Content-Type") == "image/jpeg" && first.header("X-Magpie-Cache") == "miss")
        #expect(first.header("Content-Length") == String(first.body.count) && first.header("X-Request-ID") == "req-1")
        #expect(first.header("Cache-Control") == "public, max-age=31536000")
        #expect(first.header("X-Content-Type-Options") == "nosniff")
        let image = try Image(decoding: first.body)
        #expect(image.width == 48 && image.height == 32, "96×64 fit inside 48×48")
        let etag = try #require(first.header("ETag"))
        let again = await h.get(target)
        #expect(again.status == 200 && again.body == first.body && again.header("X-Magpie-Cache") == "hit")
        #expect(again.header("ETag") == etag)
        let notModified = await h.get(target, headers: [("If-None-Match", etag)])
        #expect(notModified.status == 304 && notModified.body.isEmpty && notModified.header("ETag") == etag)
        let head = await h.get(target, method: "HEAD")
        #expect(head.status == 200 && head.body.isEmpty && head.header("Content-Length") == String(first.body.count))
        // Another size and another format of the same source: no new download.
        let png = await h.get(h.target("rs:fill:20:20/g:so", "/a.jpg", ext: "png"))
        #expect(png.status == 200 && png.header("Content-Type") == "image/png")
        let small = try Image(decoding: png.body)
        #expect(small.width == 20 && small.height == 20)
        let webp = await h.get(h.target("w:30", "/a.jpg", ext: "webp"))
        #expect(webp.status == 200 && webp.header("Content-Type") == "image/webp")
        #expect(h.origin.requestCount("/a.jpg") == 1, "one download for every variant")
        // Automatic format: PNG stays PNG.
        let auto = await h.get(h.target("w:20", "/a.png"))
        #expect(auto.header("Content-Type") == "image/png")
        try await h.finish()
    }

    @Test func identicalRequestsArrivingTogetherShareOneDownloadAndOneEncode() async throws {
        let gate = Gate()
        let h = try await Self.harness({ request in
            await gate.wait()
            return .ok(NetFixture.jpeg, contentType: "image/jpeg")
        })
        let target = h.target("rs:fit:40:40", "/slow.jpg")
        let bodies = Locked<[[UInt8]]>([])
        let service = h.service
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    let r = await service.respond(to: ServiceRequest(method: "GET", target: target))
                    bodies.withLock { $0.append(r.body) }
                }
            }
            group.addTask {
                // Open the origin once every caller is waiting on the one retrieval.
                while service.manager.callersWaiting + service.manager.dataCallersWaiting < 50 {
                    await Task.yield()
                }
                gate.open()
            }
        }
        let all = bodies.withLock { $0 }
        #expect(all.count == 50 && Set(all).count == 1 && !all[0].isEmpty)
        #expect(h.origin.requestCount("/slow.jpg") == 1)
        #expect(h.service.manager.statistics.processed == 1, "one decode and resize")
        try await h.finish()
    }

    @Test func badRequestsFailBeforeAnythingIsFetched() async throws {
        let h = try await Self.harness(Self.images) { $0.presets = ["small": ["w:10"]] }
        let good = h.target("w:10", "/a.jpg")
        let signature = good.split(separator: "/")[0]
        let cases: [(String, Int)] = [
            (good.replacingOccurrences(of: String(signature), with: "AAAA"), 403),
            ("/unsafe/w:10/plain/" + h.url("/a.jpg"), 403),
            (h.target("w:10:20", "/a.jpg"), 400),
            (h.target("zoom:0", "/a.jpg"), 400),
            (h.target("w:9000", "/a.jpg"), 400),
            (h.target("w:5000/dpr:2", "/a.jpg"), 400),
            (h.target("exp:1999999999", "/a.jpg"), 403),
            (h.target("w:10", "/a.jpg", ext: "bmp"), 400),
            (
                "/" + URLSignature.sign("/w:10/plain/ftp://127.0.0.2/a.jpg", with: Self.key)
                    + "/w:10/plain/ftp://127.0.0.2/a.jpg", 400
            ),
            // Credentials in the source (its @ percent-encoded: a bare one would start the extension).
            (
                "/" + URLSignature.sign("/plain/http://u:p%40127.0.0.2/a.jpg", with: Self.key)
                    + "/plain/http://u:p%40127.0.0.2/a.jpg", 403
            ),
            (
                "/" + URLSignature.sign("/plain/http://u:p@127.0.0.2/a.jpg", with: Self.key)
                    + "/plain/http://u:p@127.0.0.2/a.jpg", 400
            ),
            ("/nothing", 400),
        ]
        for (target, status) in cases {
            let r = await h.get(target)
            #expect(r.status == status, "\(target)")
            #expect(
                r.header("Cache-Control") == "no-store" && r.header("Content-Type")?.hasPrefix("text/plain") == true)
            #expect(!String(decoding: r.body, as: UTF8.self).contains("127.0.0.2"), "never echoes the request")
        }
        #expect(h.origin.totalRequests == 0 && h.origin.connectionsAccepted == 0)
        #expect(await h.get(good, method: "POST").status == 405)
        let health = await h.get("/health")
        #expect(health.status == 200 && health.body == Array("ok\n".utf8))
        #expect(await h.get(h.target("pr:small", "/a.jpg")).status == 200)
        try await h.finish()
    }

    @Test func originFailuresMapToGatewayStatuses() async throws {
        let h = try await Self.harness(Self.images)
        let expected: [(String, Int)] = [("/missing", 404), ("/gone", 410), ("/text", 422), ("/broken", 502)]
        for (path, status) in expected {
            #expect(await h.get(h.target("w:10", path)).status == status, "\(path)")
        }
        // The server's own network: refused by the address policy, nothing connects.
        let inside = try await LoopbackServer(host: "127.0.0.1", handler: Self.images)
        let target = "/plain/http://127.0.0.1:\(inside.port)/a.jpg"
        let denied = await h.get("/" + URLSignature.sign(target, with: Self.key) + target)
        #expect(denied.status == 403 && inside.connectionsAccepted == 0)
        try await inside.shutdown()
        try await h.finish()
    }
}
