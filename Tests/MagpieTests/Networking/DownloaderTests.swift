import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie

@Suite struct DownloaderTests {
    /// A downloader whose retries record their delays instead of waiting.
    func makeDownloader(
        _ config: ImageDownloader.Config = .init(), clock: ManualClock = ManualClock(),
        delays: Recorder<Duration> = Recorder()
    ) -> ImageDownloader {
        ImageDownloader(config: config, clock: clock, sleep: { delays.add($0) })
    }

    @Test func concurrentCallersShareOneRequest() async throws {
        let gate = Gate()
        try await withServer(gatedJPEG(gate)) { server in
            let downloader = makeDownloader()
            let url = NetFixture.url(server, "/a.jpg")
            let results = try await withThrowingTaskGroup(of: ImageDownloadResult.self) { group in
                for _ in 0..<50 { group.addTask { try await downloader.download(url) } }
                await eventually("50 callers waiting") { downloader.callersWaiting == 50 }
                #expect(server.requestCount("/a.jpg") <= 1)
                gate.open()
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(server.requestCount("/a.jpg") == 1)
            #expect(results.count == 50 && results.allSatisfy { $0.data == NetFixture.jpeg && $0.format == .jpeg })
            #expect(results.filter(\.coalesced).count == 49)
            #expect(downloader.statistics.coalesced == 49 && downloader.statistics.requests == 1)
            // Arriving after completion starts a new request.
            _ = try await downloader.download(url)
            #expect(server.requestCount("/a.jpg") == 2)
            try await downloader.shutdown()
        }
    }

    @Test func differentAuthorizationIsNeverShared() async throws {
        let gate = Gate()
        try await withServer({ request in
            await gate.wait()
            return .ok(
                Array((request.header("Authorization") ?? "none").utf8) + NetFixture.png, contentType: "image/png")
        }) { server in
            let downloader = makeDownloader(.init(requiresImageBody: false))
            let url = NetFixture.url(server, "/private.png")
            async let alice = downloader.download(
                url, options: .init(headers: [.init("Authorization", "Bearer alice")]))
            async let bob = downloader.download(url, options: .init(headers: [.init("Authorization", "Bearer bob")]))
            await eventually("two requests at the server") { server.requestCount("/private.png") == 2 }
            gate.open()
            let (a, b) = try await (alice, bob)
            #expect(a.data.starts(with: Array("Bearer alice".utf8)))
            #expect(b.data.starts(with: Array("Bearer bob".utf8)))
            #expect(!a.coalesced && !b.coalesced)
            try await downloader.shutdown()
        }
    }

    @Test func cancellingOneCallerLeavesTheOthers() async throws {
        let gate = Gate()
        try await withServer(gatedJPEG(gate)) { server in
            let downloader = makeDownloader()
            let url = NetFixture.url(server, "/c.jpg")
            let first = Task { try await downloader.download(url) }
            let second = Task { try await downloader.download(url) }
            await eventually("both waiting") { downloader.callersWaiting == 2 && server.requestCount("/c.jpg") == 1 }
            first.cancel()
            await #expect(throws: CancellationError.self) { try await first.value }
            #expect(downloader.downloadsInFlight == 1)
            gate.open()
            #expect(try await second.value.data == NetFixture.jpeg)
            #expect(server.requestCount("/c.jpg") == 1)
            try await downloader.shutdown()
        }
    }

    @Test func cancellingEveryCallerCancelsTheRequest() async throws {
        let gate = Gate()
        try await withServer(gatedJPEG(gate)) { server in
            let downloader = makeDownloader()
            let events = Recorder<String>()
            downloader.addObserver { event in
                if case .didCancel(let u) = event { events.add("cancel " + u.path) }
            }
            let url = NetFixture.url(server, "/d.jpg")
            let tasks = (0..<3).map { _ in Task { try await downloader.download(url) } }
            await eventually("three waiting") { downloader.callersWaiting == 3 && server.requestCount("/d.jpg") == 1 }
            for task in tasks { task.cancel() }
            for task in tasks { await #expect(throws: CancellationError.self) { try await task.value } }
            #expect(downloader.downloadsInFlight == 0)
            // The HTTP request itself was cancelled: only cancellation ends a response held at the gate.
            await eventually("the download reports its cancellation") { events.all == ["cancel /d.jpg"] }
            gate.open()
            _ = try await downloader.download(url)
            #expect(server.requestCount("/d.jpg") == 2)
            try await downloader.shutdown()
        }
    }

    @Test func transientFailuresAreRetriedWithBackoff() async throws {
        let attempts = Recorder<Int>()
        try await withServer({ request in
            attempts.add(1)
            if request.path == "/flaky.jpg" && attempts.all.count < 3 { return .respond(status: 503) }
            if request.path == "/busy.jpg" { return .respond(status: 429, headers: [("Retry-After", "7")]) }
            if request.path == "/gone.jpg" { return .respond(status: 404) }
            return .ok(NetFixture.jpeg, contentType: "image/jpeg")
        }) { server in
            let delays = Recorder<Duration>()
            let strategy = RetryStrategy(maxRetries: 3, backoff: .exponential(.milliseconds(100)), jitter: 0)
            let downloader = makeDownloader(.init(retryStrategy: strategy), delays: delays)
            let ok = try await downloader.download(NetFixture.url(server, "/flaky.jpg"))
            #expect(ok.data == NetFixture.jpeg)
            #expect(server.requestCount("/flaky.jpg") == 3)
            #expect(delays.all == [.milliseconds(100), .milliseconds(200)])

            // 429 honours Retry-After (7 s beats the back-off), then gives up after 3 retries.
            await #expect(throws: ImageDownloadError.badStatus(code: 429, retryAfter: .seconds(7))) {
                try await downloader.download(NetFixture.url(server, "/busy.jpg"))
            }
            #expect(server.requestCount("/busy.jpg") == 4)
            #expect(Array(delays.all.suffix(3)) == [.seconds(7), .seconds(7), .seconds(7)])

            // 404 is never retried.
            await #expect(throws: ImageDownloadError.badStatus(code: 404, retryAfter: nil)) {
                try await downloader.download(NetFixture.url(server, "/gone.jpg"))
            }
            #expect(server.requestCount("/gone.jpg") == 1)
            try await downloader.shutdown()
        }
    }

    @Test func refusedConnectionsAreRetried() async throws {
        // A port that was just free: nothing listens there.
        let server = try await LoopbackServer { _ in .respond(status: 204) }
        let port = server.port
        try await server.shutdown()
        let delays = Recorder<Duration>()
        let downloader = makeDownloader(
            .init(
                connectTimeout: .milliseconds(300),
                retryStrategy: RetryStrategy(maxRetries: 2, backoff: .fixed(.milliseconds(5)), jitter: 0)),
            delays: delays)
        do {
            _ = try await downloader.download(URL(string: "http://127.0.0.1:\(port)/x.jpg")!)
            Issue.record("a refused connection succeeded")
        } catch let error as ImageDownloadError {
            #expect(error == .connectionRefused(host: "127.0.0.1", port: port))
        }
        #expect(downloader.statistics.requests == 3 && delays.all == [.milliseconds(5), .milliseconds(5)])
        try await downloader.shutdown()
    }

    @Test func urlsAreNormalisedForCoalescing() throws {
        let cases: [(String, String)] = [
            ("HTTP://Example.COM/a.jpg#frag", "http://example.com/a.jpg"),
            ("http://example.com:80/a.jpg", "http://example.com/a.jpg"),
            ("https://example.com:443/a.jpg?x=1", "https://example.com/a.jpg?x=1"),
            ("https://example.com", "https://example.com/"),
            ("http://example.com:8080/a.jpg", "http://example.com:8080/a.jpg"),
            ("http://127.0.0.1:9000/b/c.png?q=%20", "http://127.0.0.1:9000/b/c.png?q=%20"),
        ]
        for (input, expected) in cases {
            #expect(try ImageDownloader.normalized(URL(string: input)!).absoluteString == expected, "\(input)")
        }
        #expect(WebURL.isNormalized("http://127.0.0.1:9000/b/c.png"))
        #expect(!WebURL.isNormalized("http://Example.com/a"))
        #expect(!WebURL.isNormalized("http://example.com"))
        #expect(!WebURL.isNormalized("http://example.com:80/a"))
        #expect(!WebURL.isNormalized("http://example.com/a#b"))
    }

    @Test func retryStrategyRules() {
        let s = RetryStrategy(maxRetries: 2, backoff: .exponential(base: .seconds(1), maximum: .seconds(3)), jitter: 0)
        #expect(s.delay(beforeRetry: 1, after: ImageDownloadError.timedOut(.seconds(1))) == .seconds(1))
        #expect(s.delay(beforeRetry: 2, after: ImageDownloadError.connectionFailed("reset")) == .seconds(2))
        #expect(s.delay(beforeRetry: 3, after: ImageDownloadError.timedOut(.seconds(1))) == nil, "count")
        #expect(s.delay(beforeRetry: 1, after: ImageDownloadError.badStatus(code: 500, retryAfter: nil)) != nil)
        #expect(s.delay(beforeRetry: 1, after: ImageDownloadError.badStatus(code: 403, retryAfter: nil)) == nil)
        #expect(s.delay(beforeRetry: 1, after: ImageDownloadError.notAnImage(contentType: nil)) == nil)
        #expect(s.delay(beforeRetry: 1, after: CancellationError()) == nil)
        let capped = RetryStrategy(
            maxRetries: 9, backoff: .exponential(base: .seconds(1), maximum: .seconds(3)), jitter: 0)
        #expect(capped.delay(beforeRetry: 5, after: ImageDownloadError.timedOut(.zero)) == .seconds(3))
        // Retry-After beyond the cap fails instead of waiting.
        #expect(
            s.delay(beforeRetry: 1, after: ImageDownloadError.badStatus(code: 503, retryAfter: .seconds(600))) == nil)
        // Jitter draws below the full delay.
        let jittered = RetryStrategy(maxRetries: 1, backoff: .fixed(.seconds(1)), jitter: 1)
        #expect(
            jittered.delay(beforeRetry: 1, after: ImageDownloadError.timedOut(.zero), randomUnit: 0.25)
                == .milliseconds(750))
        // Retry-After as an HTTP date.
        let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        #expect(RetryStrategy.parseRetryAfter("Sun, 06 Nov 1994 08:50:07 GMT", now: now) == .seconds(30))
        #expect(RetryStrategy.parseRetryAfter("120", now: now) == .seconds(120))
        #expect(RetryStrategy.parseRetryAfter("soon", now: now) == nil)
    }

    @Test func downloadsPerHostAreBounded() async throws {
        let gate = Gate()
        try await withServer(gatedJPEG(gate)) { server in
            let downloader = makeDownloader(.init(maxConcurrentDownloadsPerHost: 2))
            try await withThrowingTaskGroup(of: Void.self) { group in
                for i in 0..<5 {
                    group.addTask { _ = try await downloader.download(NetFixture.url(server, "/p\(i).jpg")) }
                }
                await eventually("five downloads started") { downloader.downloadsInFlight == 5 }
                await eventually("two at the server") { server.totalRequests == 2 }
                #expect(server.totalRequests == 2)
                gate.open()
                try await group.waitForAll()
            }
            #expect(server.totalRequests == 5)
            try await downloader.shutdown()
        }
    }
}
