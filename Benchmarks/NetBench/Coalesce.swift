import Foundation
import Magpie

/// `magpie-net-bench coalesce URL DIR [-n N]`: N concurrent retrievals of one URL, through one
/// manager; reports the downloads, decodes and coalesced callers it took.
func measureCoalesce(url: URL, dir: String) async throws {
    let n = option("-n", 1000)
    let manager = try makeManager(dir + "/coalesce")
    let options = try ImageOptions.make { make in make.size.lessThanOrEqualTo(256) }
    let t = try await seconds {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<n {
                group.addTask { _ = try await manager.retrieveImage(with: .network(url), options: options) }
            }
            try await group.waitForAll()
        }
    }
    let s = manager.statistics
    print(
        String(
            format: "%d concurrent retrievals of one URL in %.3f s: %d download(s), %d decode(s), %d coalesced",
            n, t, manager.downloader.statistics.downloads, s.processed, s.coalesced))
    await manager.cache.shutdown()
    try await manager.downloader.shutdown()
}
