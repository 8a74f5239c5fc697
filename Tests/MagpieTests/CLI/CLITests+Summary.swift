import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie

extension CLINetworkTests {
    static func summary(_ run: CLI.Result) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)")
    }

    /// Each image is counted once, in the column it ended in; revalidations on their own.
    @Test func fetchCountsEachImageInTheColumnItEndedIn() async throws {
        let origin = RevalidatingOrigin()
        origin.set("/a.jpg") { $0.cacheControl = "max-age=3600" }
        origin.set("/n.jpg") { $0.cacheControl = "no-cache" }
        try await withServer(origin.handler) { server in
            let dir = try TemporaryDirectory()
            let (a, n, missing) = (
                server.baseURL + "/a.jpg", server.baseURL + "/n.jpg", server.baseURL + "/missing.jpg"
            )
            let base = ["--cache-dir", dir.path("cache"), "--retries", "0"]
            let cold = try Self.summary(try await CLI.runAsync(["fetch", a, a, n, missing, "--json"] + base))
            #expect(cold["images"] as? Int == 4 && cold["downloaded"] as? Int == 2 && cold["failed"] as? Int == 1)
            #expect((cold["coalesced"] as? Int ?? 0) + (cold["memory_hits"] as? Int ?? 0) == 1, "the second a.jpg")
            #expect(cold["disk_hits"] as? Int == 0 && origin.requests("/a.jpg").count == 1)
            // A new process: a.jpg is fresh on disk, n.jpg is revalidated (304) and ends as a disk hit.
            let warm = try Self.summary(try await CLI.runAsync(["fetch", a, n, "--json"] + base))
            #expect(warm["downloaded"] as? Int == 0 && warm["disk_hits"] as? Int == 2, "\(warm)")
            #expect(warm["revalidations"] as? Int == 1 && warm["not_modified"] as? Int == 1)
            // A failure is not a download, in the text summary too.
            let failed = try await CLI.runAsync(["fetch", missing] + base)
            #expect(failed.status == 1)
            #expect(
                failed.stdout.contains("1 images in")
                    && failed.stdout.contains(
                        ": 0 downloaded (0 B), 0 coalesced, 0 memory hits, 0 disk hits, 1 failed"),
                "\(failed.stdout)")
            let revalidated = try await CLI.runAsync(["fetch", n] + base)
            #expect(revalidated.stdout.contains("0 downloaded (0 B)") && revalidated.stdout.contains("1 disk hits"))
            #expect(revalidated.stdout.contains("1 revalidated (1 not modified)"), "\(revalidated.stdout)")
        }
    }

    /// A body cut halfway is continued with a range request, and both summaries say how much
    /// was not fetched again.
    @Test func summariesCountResumedBytes() async throws {
        for command in ["fetch", "prefetch"] {
            let origin = RangeOrigin(.init(body: DownloaderTests.large), faults: [0: .cut(60_000)])
            try await withServer({ await origin.handler($0) }) { server in
                let dir = try TemporaryDirectory()
                let url = server.baseURL + "/big.jpg"
                try url.write(toFile: dir.path("urls.txt"), atomically: true, encoding: .utf8)
                let source = command == "fetch" ? [url] : ["-i", dir.path("urls.txt")]
                let base = [command] + source + ["--cache-dir", dir.path("cache"), "--retry-delay", "1"]
                let json = try Self.summary(try await CLI.runAsync(base + ["--json"]))
                #expect(json["resumes"] as? Int == 1 && json["resumed_bytes"] as? Int == 60_000, "\(command): \(json)")
                #expect(
                    origin.seen.map(\.range) == [nil, "bytes=60000-"] && origin.bytesSent == DownloaderTests.large.count
                )
                // The text summary, in a new cache.
                let again = RangeOrigin(.init(body: DownloaderTests.large), faults: [0: .cut(60_000)])
                try await withServer({ await again.handler($0) }) { second in
                    let url = second.baseURL + "/big.jpg"
                    try url.write(toFile: dir.path("urls.txt"), atomically: true, encoding: .utf8)
                    let source = command == "fetch" ? [url] : ["-i", dir.path("urls.txt")]
                    let text = try await CLI.runAsync(
                        [command] + source + ["--cache-dir", dir.path("cache2"), "--retry-delay", "1"])
                    #expect(
                        text.status == 0 && text.stdout.contains("1 retries (1 resumed, 58.6 KiB not fetched again)"),
                        "\(command): \(text.stdout)")
                }
            }
        }
    }

    /// `prefetch` counts stored, already cached, revalidated and failed URLs apart.
    @Test func prefetchCountsRevalidatedApartFromStored() async throws {
        let origin = RevalidatingOrigin()
        for path in ["/a.jpg", "/b.jpg"] { origin.set(path) { $0.cacheControl = "max-age=3600" } }
        try await withServer(origin.handler) { server in
            let dir = try TemporaryDirectory()
            let list = dir.path("urls.txt")
            try ["/a.jpg", "/missing.jpg"].map { server.baseURL + $0 }.joined(separator: "\n")
                .write(toFile: list, atomically: true, encoding: .utf8)
            let base = ["prefetch", "-i", list, "--cache-dir", dir.path("cache"), "--retries", "0", "--json"]
            let first = try Self.summary(try await CLI.runAsync(base))
            #expect(
                first["completed"] as? Int == 1 && first["failed"] as? Int == 1 && first["revalidated"] as? Int == 0)
            try ["/a.jpg", "/b.jpg", "/missing.jpg"].map { server.baseURL + $0 }.joined(separator: "\n")
                .write(toFile: list, atomically: true, encoding: .utf8)
            let asked = try Self.summary(try await CLI.runAsync(base + ["--revalidate"]))
            #expect(asked["completed"] as? Int == 1 && asked["revalidated"] as? Int == 1, "\(asked)")
            #expect(asked["skipped"] as? Int == 0 && asked["failed"] as? Int == 1 && asked["not_modified"] as? Int == 1)
            let text = try await CLI.runAsync(Array(base.dropLast()))
            #expect(text.stdout.contains("0 stored (0 B), 2 already cached, 0 revalidated, 1 failed"), "\(text.stdout)")
        }
    }
}
