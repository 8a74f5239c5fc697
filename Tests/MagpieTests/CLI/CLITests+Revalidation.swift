import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie

extension CLINetworkTests {
    /// `fetch --revalidate` asks the origin about every cached image (curl's `-z`): 304s renew
    /// the entries and download nothing; a changed image comes down again; `--serve-stale` keeps
    /// serving cached images while the origin fails.
    @Test func fetchRevalidateAsksConditionallyAndCountsIt() async throws {
        let origin = RevalidatingOrigin()
        for path in ["/a.jpg", "/b.jpg"] { origin.set(path) { $0.cacheControl = "max-age=3600" } }
        try await withServer(origin.handler) { server in
            let dir = try TemporaryDirectory()
            let urls = ["/a.jpg", "/b.jpg"].map { server.baseURL + $0 }
            let base = ["fetch"] + urls + ["-s", "32", "--cache-dir", dir.path("cache"), "--json", "--retries", "0"]
            let cold = try await CLI.runAsync(base)
            #expect(cold.status == 0, "\(cold.stderr)")
            origin.set("/b.jpg") {
                $0.version = 2
                $0.body = NetFixture.png
            }
            let checked = try await CLI.runAsync(base + ["--revalidate"])
            #expect(checked.status == 0, "\(checked.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(checked.stdout.utf8)) as? [String: Any])
            #expect(json["conditional_requests"] as? Int == 2 && json["revalidations"] as? Int == 2)
            #expect(json["not_modified"] as? Int == 1 && json["renewed"] as? Int == 1)
            #expect(json["bytes"] as? Int == NetFixture.png.count, "only the changed image came down")
            let rows = try #require(json["results"] as? [[String: Any]])
            #expect(rows.map { $0["from"] as? String } == ["disk", "network"])
            #expect(origin.requests("/a.jpg").map(\.ifNoneMatch) == [nil, "\"v1\""])
            #expect(origin.requests("/b.jpg").map(\.ifNoneMatch) == [nil, "\"v1\""])
            // Without the flag, fresh entries are not asked about.
            let plain = try await CLI.runAsync(base)
            #expect(plain.status == 0 && origin.requests("/a.jpg").count == 2)
            // The origin fails: --revalidate alone fails, with --serve-stale the cache answers.
            for path in ["/a.jpg", "/b.jpg"] { origin.set(path) { $0.conditionalStatus = 503 } }
            let down = try await CLI.runAsync(base + ["--revalidate"])
            #expect(down.status == 1 && down.stdout.contains("HTTP status 503"), "\(down.stdout)")
            let stale = try await CLI.runAsync(base + ["--revalidate", "--serve-stale"])
            #expect(stale.status == 0, "\(stale.stderr)")
            let served = try #require(try JSONSerialization.jsonObject(with: Data(stale.stdout.utf8)) as? [String: Any])
            #expect(served["stale_served"] as? Int == 2 && served["failed"] as? Int == 0)
            let both = try await CLI.runAsync(base + ["--revalidate", "--force-refresh"])
            #expect(both.status != 0 && both.stderr.contains("--revalidate and --force-refresh"))
        }
    }

    /// `prefetch --revalidate` asks about every cached URL instead of skipping it, and reports
    /// the conditional requests, 304s and bytes received in its JSON.
    @Test func prefetchRevalidateAsksInsteadOfSkipping() async throws {
        let origin = RevalidatingOrigin()
        for path in ["/a.jpg", "/b.jpg"] { origin.set(path) { $0.cacheControl = "max-age=3600" } }
        try await withServer(origin.handler) { server in
            let dir = try TemporaryDirectory()
            try ["/a.jpg", "/b.jpg"].map { server.baseURL + $0 }.joined(separator: "\n")
                .write(toFile: dir.path("urls.txt"), atomically: true, encoding: .utf8)
            let base = ["prefetch", "-i", dir.path("urls.txt"), "-s", "32", "--cache-dir", dir.path("cache"), "--json"]
            #expect(try await CLI.runAsync(base).status == 0)
            let skipped = try await CLI.runAsync(base)
            #expect(skipped.stdout.contains("\"skipped\": 2") && origin.requests("/a.jpg").count == 1)
            let checked = try await CLI.runAsync(base + ["--revalidate"])
            #expect(checked.status == 0, "\(checked.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(checked.stdout.utf8)) as? [String: Any])
            #expect(json["conditional_requests"] as? Int == 2 && json["not_modified"] as? Int == 2)
            #expect(json["received"] as? Int == 0 && json["revalidated"] as? Int == 2 && json["renewed"] as? Int == 2)
            #expect(json["completed"] as? Int == 0)
        }
    }
}
