import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie

extension DownloaderTests {
    /// A port with no listener fails as refused, naming host and port, without waiting for the
    /// connect timeout (30 s): a client that kept trying to connect until then (AsyncHTTPClient's
    /// default) reports the same refusal, so what tells them apart is only whether the wait
    /// happened. The bound is a third of the timeout, not a speed target: on loopback the refusal
    /// takes milliseconds. Through an address literal, a pinned name, and a redirect hop.
    @Test func aRefusedConnectionFailsAtOnceAsRefused() async throws {
        let closed = try await LoopbackServer { _ in .respond(status: 204) }
        let port = closed.port
        try await closed.shutdown()
        try await withServer({ request in
            .respond(status: 302, headers: [("Location", "http://127.0.0.1:\(port)/gone.png")])
        }) { origin in
            var config = ImageDownloader.Config(timeout: .seconds(60), connectTimeout: .seconds(30))
            config.resolver = ScriptedResolver(["closed.test": [["127.0.0.1"]]])
            let downloader = ImageDownloader(config: config)
            for (url, host) in [
                ("http://127.0.0.1:\(port)/x.png", "127.0.0.1"), ("http://closed.test:\(port)/x.png", "closed.test"),
                (origin.baseURL + "/hop", "127.0.0.1"),
            ] {
                let started = ContinuousClock.now
                defer {
                    #expect(ContinuousClock.now - started < .seconds(10), "\(url): waited for the connect timeout")
                }
                do {
                    _ = try await downloader.download(URL(string: url)!)
                    Issue.record("\(url): a closed port answered")
                } catch let error as ImageDownloadError {
                    #expect(error == .connectionRefused(host: host, port: port), "\(url)")
                    #expect(error.description == "connection refused by \(host):\(port)")
                }
            }
            try await downloader.shutdown()
        }
    }
}

extension DownloaderTests {
    /// `maxConcurrentDownloads` bounds requests across hosts: with two slots, two of four
    /// downloads to different hosts reach their origins and two wait, until a slot frees.
    @Test func downloadsAcrossHostsShareOneBound() async throws {
        let gate = Gate()
        try await withServer({ _ in
            await gate.wait()
            return .ok(NetFixture.png, contentType: "image/png")
        }) { server in
            var config = ImageDownloader.Config(maxConcurrentDownloadsPerHost: 6)
            config.maxConcurrentDownloads = 2
            config.resolver = ScriptedResolver([
                "a.test": [["127.0.0.1"]], "b.test": [["127.0.0.1"]], "c.test": [["127.0.0.1"]],
                "d.test": [["127.0.0.1"]],
            ])
            let downloader = ImageDownloader(config: config)
            let port = server.port
            let all = Task {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for host in ["a", "b", "c", "d"] {
                        group.addTask {
                            try await downloader.download(URL(string: "http://\(host).test:\(port)/x.png")!).data.count
                        }
                    }
                    return try await group.reduce(0, +)
                }
            }
            // Bounded, so that a downloader that let all four through fails here instead of hanging.
            for _ in 0..<5_000_000 where server.totalRequests < 2 || downloader.requestsQueued < 2 {
                await Task.yield()
            }
            #expect(server.totalRequests == 2 && downloader.requestsQueued == 2)
            gate.open()
            #expect(try await all.value == 4 * NetFixture.png.count)
            #expect(server.totalRequests == 4)
            try await downloader.shutdown()
        }
    }
}
