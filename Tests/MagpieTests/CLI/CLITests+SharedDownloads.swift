import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie

extension CLITests {
    /// Four `magpie prefetch` processes over the same 200 URLs and one cache folder: with the
    /// download lease the origin sees each URL once; without it (`--no-shared-downloads`), as
    /// many times as processes overlap on it (printed for the README).
    @Test func fourProcessesPrefetchingTheSameURLsDownloadEachOnce() async throws {
        let jpeg = NetFixture.jpeg
        // Each response takes about 20 ms, so the processes overlap on every URL.
        let server = try await LoopbackServer { _ in
            .slow(
                status: 200, headers: [("Content-Type", "image/jpeg")],
                chunks: [Array(jpeg.prefix(100)), Array(jpeg.dropFirst(100))], interval: .milliseconds(20),
                contentLength: jpeg.count)
        }
        var counts: [Bool: Int] = [:]
        for shared in [false, true] {
            let dir = try TemporaryDirectory()
            let round = shared ? "shared" : "apart"
            let urls = (0..<200).map { "\(server.baseURL)/\(round)/\($0).jpg" }
            try urls.joined(separator: "\n").write(toFile: dir.path("urls"), atomically: true, encoding: .utf8)
            let arguments =
                ["prefetch", "-i", dir.path("urls"), "--cache-dir", dir.path("cache"), "--retries", "0", "-j", "8"]
                + (shared ? [] : ["--no-shared-downloads"])
            let runs = try await withThrowingTaskGroup(of: CLI.Result.self) { group in
                for _ in 0..<4 { group.addTask { try await CLI.runAsync(arguments) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(runs.allSatisfy { $0.status == 0 }, "\(runs.map(\.stderr))")
            counts[shared] = (0..<200).reduce(0) { $0 + server.requestCount("/\(round)/\($1).jpg") }
            let stored = try DiskCache(config: .init(directory: dir.path("cache"), sweepInterval: nil)).count
            #expect(stored == 200)
        }
        #expect(counts[true] == 200, "with leases: \(counts[true] ?? -1) downloads")
        #expect((counts[false] ?? 0) >= 200)
        print("four prefetch processes, 200 URLs: \(counts[false] ?? 0) downloads apart, \(counts[true] ?? 0) shared")
        try await server.shutdown()
    }
}
