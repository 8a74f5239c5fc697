import Foundation
import Magpie

/// `policy` mode: the address policy's cost on warm downloads.
func measurePolicy(_ list: [URL]) async throws {
    // The address policy's cost on warm downloads: every URL by the name `localhost`, through
    // downloaders whose connections are open already (one untimed pass first, then three timed
    // ones). Off: the HTTP client resolves the name itself. On: the loader resolved it once,
    // judged it and pinned it. Seven rounds, each side first in turn, medians.
    let urls = list.map {
        URL(string: $0.absoluteString.replacingOccurrences(of: "://127.0.0.1:", with: "://localhost:"))!
    }
    let sides: [(String, AddressPolicy)] = [
        ("off (allowAll)", .allowAll), ("standard", .standard),
        ("publicOnly + 127.0.0.0/8", try AddressPolicy.publicOnly.allowing(networks: ["127.0.0.0/8"])),
    ]
    var times: [String: [Double]] = [:]
    for round in 0..<7 {
        for offset in 0..<sides.count {
            let (name, policy) = sides[(round + offset) % sides.count]
            var config = ImageDownloader.Config(maxConcurrentDownloadsPerHost: concurrency)
            config.addressPolicy = policy
            let downloader = ImageDownloader(config: config)
            try await downloadAll(urls, downloader)
            times[name, default: []].append(
                try await seconds { for _ in 0..<3 { try await downloadAll(urls, downloader) } })
            try await downloader.shutdown()
        }
    }
    let m = times.mapValues(median)
    let off = m["off (allowAll)"]!
    print(
        "address policy, 3 × \(urls.count) warm downloads by name, medians of 7: "
            + sides.map { "\($0.0) " + String(format: "%.3f s (%.3f×)", m[$0.0]!, m[$0.0]! / off) }
            .joined(separator: ", "))
}
