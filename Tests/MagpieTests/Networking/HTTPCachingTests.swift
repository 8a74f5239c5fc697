import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie

/// What responses say about caching them, and conditional downloads (`If-None-Match`,
/// `If-Modified-Since`, `304 Not Modified`).
@Suite struct HTTPCachingTests {
    func headers(_ fields: [(String, String)]) -> HTTPCacheHeaders {
        HTTPCacheHeaders(fields.map { HTTPHeaderField($0.0, $0.1) })
    }

    @Test func httpDatesInAllThreeForms() {
        let instant = Date(timeIntervalSince1970: 784_111_777)  // 1994-11-06 08:49:37 UTC
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == instant)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == instant)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == instant)
        #expect(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT") == Date(timeIntervalSince1970: 0))
        #expect(HTTPDate.parse("Sat, 29 Feb 2048 23:59:60 GMT") != nil, "leap day and leap second")
        for bad in [
            "", "0", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Nox 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:49 GMT", "Sunday, 06-Nov-1994 08:49:37 GMT",
        ] {
            #expect(HTTPDate.parse(bad) == nil, "\(bad)")
        }
        #expect(HTTPDate.parse("Friday, 31-Dec-99 23:59:59 GMT") == Date(timeIntervalSince1970: 946_684_799))
        #expect(HTTPDate.parse("Monday, 01-Jan-68 00:00:00 GMT").map { $0.timeIntervalSince1970 > 0 } == true)
    }

    @Test func cacheControlDirectives() {
        let h = headers([
            ("Cache-Control", "public, MAX-AGE=\"600\", immutable"), ("cache-control", "stale-while-revalidate=30"),
            ("Cache-Control", "stale-if-error=86400, x-ext=\"a,b\", private"), ("Vary", "Accept, accept-encoding"),
            ("Vary", "DPR"),
        ])
        #expect(h.maxAge == 600 && h.immutable && h.isPrivate && !h.noStore && !h.noCache)
        #expect(h.staleWhileRevalidate == 30 && h.staleIfError == 86400)
        #expect(h.vary == ["accept", "accept-encoding", "dpr"])
        #expect(headers([("Cache-Control", "no-store, no-cache")]).noStore)
        #expect(headers([("Cache-Control", "no-cache=\"Set-Cookie\"")]).noCache)
        #expect(headers([("Vary", "Accept, *")]).vary == ["*"])
        // Conflicting or malformed lifetimes are stale.
        #expect(headers([("Cache-Control", "max-age=60"), ("Cache-Control", "max-age=3600")]).maxAge == 0)
        #expect(headers([("Cache-Control", "max-age=60, max-age=60")]).maxAge == 60)
        #expect(headers([("Cache-Control", "max-age=-5")]).maxAge == 0)
        #expect(headers([("Cache-Control", "max-age=1h")]).maxAge == 0)
        #expect(headers([("Cache-Control", "max-age=99999999999999999999")]).maxAge == Int(Int32.max))
        #expect(headers([("Expires", "0")]).expires == .distantPast)
        // Read by scalar, as an HTTP parser reads bytes: a combining mark (U+0301) or a prepended
        // one (U+070F) beside a `,` does not join it into one Character and hide the next directive.
        let marked = headers([
            ("Cache-Control", "x-a=\u{70F},no-store, x-b,\u{301}private"), ("Vary", "Accept,\u{301}DPR"),
            ("Age", "5\u{301},7"),
        ])
        #expect(marked.noStore && marked.vary == ["accept", "\u{301}dpr"] && marked.age == nil)
        #expect(HTTPCacheHeaders.directives("a=\u{70F},b").map(\.0) == ["a", "b"])
    }

    @Test func freshnessLifetime() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        func imf(_ d: Date) -> String {
            // Only for building test inputs: the same form HTTPDate reads.
            let days = Int(d.timeIntervalSince1970) / 86400
            let secs = Int(d.timeIntervalSince1970) % 86400
            var (y, m, dd) = (1970, 1, 1)
            var left = days
            while true {
                let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
                if left < (leap ? 366 : 365) { break }
                left -= leap ? 366 : 365
                y += 1
            }
            let lengths = [
                31, (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31,
            ]
            while left >= lengths[m - 1] {
                left -= lengths[m - 1]
                m += 1
            }
            dd += left
            let names = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
            func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
            return
                "Mon, \(two(dd)) \(names[m - 1]) \(y) \(two(secs / 3600)):\(two(secs % 3600 / 60)):\(two(secs % 60)) GMT"
        }
        #expect(HTTPDate.parse(imf(now)) == now, "the helper writes what the parser reads")
        #expect(headers([("Cache-Control", "max-age=600")]).freshnessLifetime(receivedAt: now) == 600)
        #expect(headers([("Cache-Control", "max-age=600"), ("Age", "100")]).freshnessLifetime(receivedAt: now) == 500)
        // The origin's clock is 50 s behind the arrival: that much age already.
        let behind = headers([("Cache-Control", "max-age=600"), ("Date", imf(now.addingTimeInterval(-50)))])
        #expect(behind.freshnessLifetime(receivedAt: now) == 550)
        // max-age wins over Expires; Expires counts from Date.
        let both = headers([
            ("Cache-Control", "max-age=10"), ("Expires", imf(now.addingTimeInterval(3600))), ("Date", imf(now)),
        ])
        #expect(both.freshnessLifetime(receivedAt: now) == 10)
        let expires = headers([("Expires", imf(now.addingTimeInterval(3600))), ("Date", imf(now))])
        #expect(expires.freshnessLifetime(receivedAt: now) == 3600)
        #expect(headers([("Expires", "never")]).freshnessLifetime(receivedAt: now)! < 0, "stale on arrival")
        #expect(headers([("ETag", "\"x\"")]).freshnessLifetime(receivedAt: now) == nil, "no lifetime given")
    }

    @Test func conditionalDownloadsGetNotModified() async throws {
        let version = Locked("\"v1\"")
        let seen = Recorder<(String?, String?)>()
        let lastModified = "Sun, 06 Nov 1994 08:49:37 GMT"
        try await withServer({ request in
            seen.add((request.header("If-None-Match"), request.header("If-Modified-Since")))
            let etag = version.withLock { $0 }
            let fields = [("ETag", etag), ("Last-Modified", lastModified), ("Cache-Control", "max-age=60")]
            if request.header("If-None-Match") == etag {
                // A 304 may bring new caching fields (RFC 9111 §4.3.4).
                return .respond(status: 304, headers: [("ETag", etag), ("Cache-Control", "max-age=120")])
            }
            if request.path == "/unconditional-304" { return .respond(status: 304) }
            return .respond(status: 200, headers: fields + [("Content-Type", "image/jpeg")], body: NetFixture.jpeg)
        }) { server in
            let downloader = ImageDownloader(config: .init(), clock: ManualClock(), sleep: { _ in })
            let url = NetFixture.url(server, "/a.jpg")
            let first = try await downloader.download(url)
            #expect(!first.notModified && first.data == NetFixture.jpeg && first.cacheHeaders.maxAge == 60)
            #expect(first.validators.etag == "\"v1\"" && first.validators.lastModified == lastModified)
            #expect(first.validators.canRevalidate && !ResponseValidators().canRevalidate)
            // Revalidating with what the cache keeps: a 304 and no body.
            let again = try await downloader.download(url, options: .init(revalidating: first.validators))
            #expect(again.notModified && again.statusCode == 304 && again.data.isEmpty)
            #expect(again.validators.etag == "\"v1\"" && again.cacheHeaders.maxAge == 120)
            #expect(again.validators.lastModified == lastModified, "kept from the request when the 304 omits it")
            #expect(seen.all.last! == ("\"v1\"", lastModified))
            // The resource changed: a 200 with the new validators.
            version.withLock { $0 = "\"v2\"" }
            let changed = try await downloader.download(url, options: .init(revalidating: first.validators))
            #expect(!changed.notModified && changed.data == NetFixture.jpeg && changed.validators.etag == "\"v2\"")
            let stats = downloader.statistics
            #expect(stats.conditionalRequests == 2 && stats.notModified == 1 && stats.downloads == 3)
            // Validators from a tampered cache file are not sent: no header injection.
            let hostile = ResponseValidators(etag: "\"v2\"\r\nX-Injected: 1", lastModified: "x\ny")
            #expect(!hostile.canRevalidate)
            let plain = try await downloader.download(url, options: .init(revalidating: hostile))
            #expect(!plain.notModified && seen.all.last! == (nil, nil))
            #expect(downloader.statistics.conditionalRequests == 2, "sent as a plain request")
            // A 304 nobody asked for is an error, not an empty image.
            await #expect(throws: ImageDownloadError.badStatus(code: 304, retryAfter: nil)) {
                _ = try await downloader.download(NetFixture.url(server, "/unconditional-304"))
            }
            try await downloader.shutdown()
        }
    }

    @Test func concurrentRevalidationsShareOneRequest() async throws {
        let gate = Gate()
        try await withServer({ request in
            await gate.wait()
            return request.header("If-None-Match") == "\"same\""
                ? .respond(status: 304, headers: [("ETag", "\"same\"")])
                : .ok(NetFixture.jpeg, contentType: "image/jpeg")
        }) { server in
            let downloader = ImageDownloader(config: .init(), clock: ManualClock(), sleep: { _ in })
            let url = NetFixture.url(server, "/shared.jpg")
            let options = DownloadOptions(revalidating: ResponseValidators(etag: "\"same\""))
            let results = try await withThrowingTaskGroup(of: ImageDownloadResult.self) { group in
                for _ in 0..<20 { group.addTask { try await downloader.download(url, options: options) } }
                await eventually("20 callers waiting") { downloader.callersWaiting == 20 }
                gate.open()
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.allSatisfy(\.notModified) && server.requestCount("/shared.jpg") == 1)
            // A plain download of the same URL is a different request.
            _ = try await downloader.download(url)
            #expect(server.requestCount("/shared.jpg") == 2)
            try await downloader.shutdown()
        }
    }
}
