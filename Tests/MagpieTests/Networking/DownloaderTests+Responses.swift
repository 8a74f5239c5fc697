import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie

/// What responses do to a download: timeouts, body limits, redirects, remembered failures,
/// request modifiers and malformed answers.
extension DownloaderTests {
    @Test func timeoutsCoverTheWholeBody() async throws {
        let never = Gate()
        try await withServer({ request in
            if request.path == "/stall.jpg" {
                await never.wait()
                return .close
            }
            let chunks = Array(repeating: Array(NetFixture.jpeg.prefix(100)), count: 20)
            return .slow(
                status: 200, headers: [("Content-Type", "image/jpeg")], chunks: chunks, interval: .milliseconds(100),
                contentLength: nil)
        }) { server in
            let downloader = makeDownloader(.init(timeout: .milliseconds(400)))
            await #expect(throws: ImageDownloadError.timedOut(.milliseconds(400))) {
                try await downloader.download(NetFixture.url(server, "/stall.jpg"))
            }
            await #expect(throws: ImageDownloadError.timedOut(.milliseconds(400))) {
                try await downloader.download(NetFixture.url(server, "/dribble.jpg"))
            }
            never.open()
            try await downloader.shutdown()
        }
    }

    @Test func bodyLimitsAndBrokenBodies() async throws {
        try await withServer({ request in
            switch request.path {
            case "/declared.jpg":
                return .ok(NetFixture.jpeg + [UInt8](repeating: 0, count: 5000), contentType: "image/jpeg")
            case "/chunked.jpg":
                return .slow(
                    status: 200, chunks: Array(repeating: NetFixture.jpeg, count: 8), interval: .zero,
                    contentLength: nil)
            case "/cut.jpg":
                return .truncated(
                    status: 200, body: Array(NetFixture.jpeg.prefix(300)), declaredLength: NetFixture.jpeg.count)
            case "/page.html": return .ok(Array("<html>hello</html>".utf8), contentType: "text/html; charset=utf-8")
            case "/error.html":
                // A 500 with a body far over the limit: the status is what counts.
                return .respond(status: 500, body: [UInt8](repeating: 0x20, count: 4 << 20))
            default: return .respond(status: 204)
            }
        }) { server in
            let limit = NetFixture.jpeg.count * 2
            let downloader = makeDownloader(.init(maxBodySize: limit, failedURLTTL: nil))
            await #expect(throws: ImageDownloadError.bodyTooLarge(limit: limit, declared: NetFixture.jpeg.count + 5000))
            {
                try await downloader.download(NetFixture.url(server, "/declared.jpg"))
            }
            await #expect(throws: ImageDownloadError.bodyTooLarge(limit: limit, declared: nil)) {
                try await downloader.download(NetFixture.url(server, "/chunked.jpg"))
            }
            do {
                _ = try await downloader.download(NetFixture.url(server, "/cut.jpg"))
                Issue.record("a truncated body was accepted")
            } catch let error as ImageDownloadError {
                #expect(error.isTransient, "a cut body is a network failure: \(error)")
                if case .truncatedBody(let received, let expected) = error {
                    #expect(received <= 300 && expected == NetFixture.jpeg.count)
                } else {
                    Issue.record("a cut body reported as \(error)")
                }
            }
            await #expect(throws: ImageDownloadError.badStatus(code: 500, retryAfter: nil)) {
                try await downloader.download(NetFixture.url(server, "/error.html"))
            }
            await #expect(throws: ImageDownloadError.notAnImage(contentType: "text/html; charset=utf-8")) {
                try await downloader.download(NetFixture.url(server, "/page.html"))
            }
            try await downloader.shutdown()
        }
    }

    @Test func redirectsAreFollowedWithinLimits() async throws {
        try await withServer({ request in
            let p = request.path
            if p == "/final.png" {
                return .ok(Array((request.header("X-Hop") ?? "").utf8) + NetFixture.png, contentType: "image/png")
            }
            if p == "/r1" { return .respond(status: 302, headers: [("Location", "/r2")]) }
            if p == "/r2" { return .respond(status: 301, headers: [("Location", "/final.png")]) }
            if p == "/loop-a" { return .respond(status: 307, headers: [("Location", "/loop-b")]) }
            if p == "/loop-b" { return .respond(status: 307, headers: [("Location", "/loop-a")]) }
            if p.hasPrefix("/chain") {
                let n = Int(p.dropFirst(6)) ?? 0
                return .respond(status: 302, headers: [("Location", "/chain\(n + 1)")])
            }
            return .respond(status: 404)
        }) { server in
            let downloader = makeDownloader(.init(requiresImageBody: false))
            let result = try await downloader.download(NetFixture.url(server, "/r1"))
            #expect(result.finalURL.path == "/final.png" && result.data == NetFixture.png)
            await #expect(throws: ImageDownloadError.redirectLoop(server.baseURL + "/loop-a")) {
                try await downloader.download(NetFixture.url(server, "/loop-a"))
            }
            await #expect(throws: ImageDownloadError.tooManyRedirects(5)) {
                try await downloader.download(NetFixture.url(server, "/chain0"))
            }
            #expect(server.requestCount("/chain5") == 1 && server.requestCount("/chain6") == 0)
            // The handler can refuse, or change the next request.
            await #expect(throws: ImageDownloadError.redirectRefused(status: 302, location: "/r2")) {
                try await downloader.download(
                    NetFixture.url(server, "/r1"), options: .init(redirectHandler: { _, _ in nil }))
            }
            let hops = Recorder<Int>()
            let changed = try await downloader.download(
                NetFixture.url(server, "/r1"),
                options: .init(redirectHandler: { response, next in
                    hops.add(response.statusCode)
                    var next = next
                    next.headers.set("X-Hop", "seen")
                    return next
                }))
            #expect(hops.all == [302, 301] && changed.data == Array("seen".utf8) + NetFixture.png)
            try await downloader.shutdown()
        }
    }

    @Test func failedURLsAreRememberedForTheirTTL() async throws {
        try await withServer({ request in
            switch request.path {
            case "/missing.jpg": return .respond(status: 404)
            case "/down.jpg": return .respond(status: 503)
            default: return .ok(Array("not an image".utf8), contentType: "text/plain")
            }
        }) { server in
            let clock = ManualClock()
            let downloader = makeDownloader(.init(failedURLTTL: .seconds(60)), clock: clock)
            let missing = NetFixture.url(server, "/missing.jpg")
            await #expect(throws: ImageDownloadError.badStatus(code: 404, retryAfter: nil)) {
                try await downloader.download(missing)
            }
            do {
                _ = try await downloader.download(missing)
                Issue.record("remembered failure not reported")
            } catch ImageDownloadError.recentlyFailed(let reason, _) {
                #expect(reason == .badStatus(code: 404, retryAfter: nil))
            }
            #expect(server.requestCount("/missing.jpg") == 1)
            // An option retries anyway; time past the TTL forgets.
            _ = try? await downloader.download(missing, options: .init(ignoresFailedURLMemory: true))
            #expect(server.requestCount("/missing.jpg") == 2)
            clock.advance(by: 61)
            _ = try? await downloader.download(missing)
            #expect(server.requestCount("/missing.jpg") == 3)
            // Bodies that are not images are remembered; transient errors are not.
            _ = try? await downloader.download(NetFixture.url(server, "/text"))
            _ = try? await downloader.download(NetFixture.url(server, "/text"))
            #expect(server.requestCount("/text") == 1)
            _ = try? await downloader.download(NetFixture.url(server, "/down.jpg"))
            _ = try? await downloader.download(NetFixture.url(server, "/down.jpg"))
            #expect(server.requestCount("/down.jpg") == 2)
            try await downloader.shutdown()
        }
    }

    @Test func requestModifierProgressAndFiles() async throws {
        try await withServer({ request in
            .ok(Array((request.header("X-Signed") ?? "-").utf8) + NetFixture.jpeg, contentType: "image/jpeg")
        }) { server in
            let downloader = makeDownloader(.init(requiresImageBody: false))
            let progress = Recorder<(Int, Int?)>()
            let signed = try await downloader.download(
                NetFixture.url(server, "/m.jpg"),
                options: .init(requestModifier: { request in
                    var request = request
                    request.headers.set("X-Signed", "yes")
                    return request
                }),
                progress: { progress.add(($0, $1)) })
            #expect(signed.data == Array("yes".utf8) + NetFixture.jpeg)
            let total = NetFixture.jpeg.count + 3
            #expect(progress.all.last.map { $0.0 == total && $0.1 == total } == true)
            struct Refused: Error {}
            await #expect(throws: ImageDownloadError.requestModifierFailed(String(describing: Refused()))) {
                try await downloader.download(
                    NetFixture.url(server, "/m.jpg"), options: .init(requestModifier: { _ in throw Refused() }))
            }
            // file:// goes through the same path.
            let dir = try TemporaryDirectory()
            try Data(NetFixture.png).write(to: URL(fileURLWithPath: dir.path("local.png")))
            let local = try await downloader.download(URL(fileURLWithPath: dir.path("local.png")))
            #expect(local.data == NetFixture.png && local.format == .png)
            await #expect(throws: ImageDownloadError.badStatus(code: 404, retryAfter: nil)) {
                try await downloader.download(URL(fileURLWithPath: dir.path("absent.png")))
            }
            await #expect(throws: ImageDownloadError.unsupportedScheme("ftp")) {
                try await downloader.download(URL(string: "ftp://example.com/a.png")!)
            }
            try await downloader.shutdown()
        }
    }

    /// Hostile or broken servers are normal input: each malformed answer fails at once with a
    /// typed error (no timeout, no crash, no unbounded header), and the downloader goes on working.
    @Test func malformedResponsesFailPromptlyWithTypedErrors() async throws {
        let jpeg = NetFixture.jpeg
        func response(_ head: String, _ body: [UInt8] = []) -> [UInt8] { Array(head.utf8) + body }
        let malformed: [String: [UInt8]] = [
            "/negative-length.jpg": response("HTTP/1.1 200 OK\r\nContent-Length: -5\r\n\r\n", jpeg),
            "/word-length.jpg": response("HTTP/1.1 200 OK\r\nContent-Length: many\r\n\r\n", jpeg),
            "/two-lengths.jpg": response(
                "HTTP/1.1 200 OK\r\nContent-Length: 10\r\nContent-Length: \(jpeg.count)\r\n\r\n", jpeg),
            "/overflowing-length.jpg": response(
                "HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999\r\n\r\n", jpeg),
            "/bad-status.jpg": response("HTTP/1.1 abc OK\r\n\r\n"),
            "/not-http.jpg": response("SSH-2.0-OpenSSH_9.2\r\n"),
            "/bad-chunk.jpg": response("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", jpeg),
            "/huge-header.jpg": response(
                "HTTP/1.1 200 OK\r\nX-Fill: " + String(repeating: "a", count: 200_000) + "\r\n\r\n"),
            "/nul-in-header.jpg": response("HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\u{0}\r\n\r\n", jpeg),
            "/nothing.jpg": [],
        ]
        // Legal: no length, the body ends when the connection does.
        let unframed = response("HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\n\r\n", jpeg)
        try await withServer({ request in
            if request.path == "/unframed.jpg" { return .raw(unframed) }
            return malformed[request.path].map { .raw($0) } ?? .ok(jpeg, contentType: "image/jpeg")
        }) { server in
            // A timeout far beyond any of these answers: failing by it would be a bug.
            let downloader = makeDownloader(.init(timeout: .seconds(60), failedURLTTL: nil))
            for path in malformed.keys.sorted() {
                do {
                    let result = try await downloader.download(NetFixture.url(server, path))
                    Issue.record("\(path) was accepted: \(result.data.count) bytes")
                } catch let error as ImageDownloadError {
                    if case .connectionFailed = error {} else { Issue.record("\(path) failed as \(error)") }
                } catch {
                    Issue.record("\(path) failed with an untyped error: \(error)")
                }
            }
            #expect(try await downloader.download(NetFixture.url(server, "/unframed.jpg")).data == jpeg)
            #expect(try await downloader.download(NetFixture.url(server, "/fine.jpg")).data == jpeg)
            try await downloader.shutdown()
        }
    }
}

/// imgproxy's `IMGPROXY_CLIENT_KEEP_ALIVE_TIMEOUT`: an idle connection to an origin is kept for
/// the next request (one connection for two downloads); with keep-alive off (`nil`, imgproxy's 0)
/// each request asks `Connection: close` and gets a connection of its own.
extension DownloaderTests {
    @Test func keepAliveKeepsOneConnectionAndOffClosesEach() async throws {
        for keepAlive in [Duration.seconds(60), nil] as [Duration?] {
            try await withServer({ _ in .ok(NetFixture.jpeg, contentType: "image/jpeg") }) { server in
                var config = ImageDownloader.Config()
                config.keepAliveTimeout = keepAlive
                config.addressPolicy = .allowAll
                let downloader = makeDownloader(config)
                for path in ["/a.jpg", "/b.jpg", "/c.jpg"] {
                    _ = try await downloader.download(NetFixture.url(server, path))
                }
                #expect(server.connectionsAccepted == (keepAlive == nil ? 3 : 1), "\(String(describing: keepAlive))")
                try await downloader.shutdown()
            }
        }
    }
}
