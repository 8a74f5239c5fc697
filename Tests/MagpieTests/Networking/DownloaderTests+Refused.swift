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
