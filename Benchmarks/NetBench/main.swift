// Network-path benchmark against a real HTTP server (nginx, started by scripts/bench-net.sh):
//   magpie-net-bench raw LIST OUTDIR [-j N]        plain AsyncHTTPClient loop, bodies written to files
//   magpie-net-bench floor FILESDIR WORKDIR        the files written from memory by one thread
//   magpie-net-bench compare LIST WORKDIR [-j N]   raw loop vs disk-only prefetch, 5 interleaved rounds
//   magpie-net-bench warm LIST WORKDIR             warm memory-cache retrievals per second, one task
//   magpie-net-bench coalesce URL WORKDIR [-n N]   N concurrent retrievals of one URL
//   magpie-net-bench policy LIST WORKDIR [-j N]    warm downloads by name, address policy off and on
//   magpie-net-bench fetch|loader|download|prefetch LIST WORKDIR [-j N]
//                                                  one side alone, 5 rounds (for profiling)
//   magpie-net-bench s3 ENDPOINT NGINX_BASE [-j N] [-n N]   S3 signing and cold rates (S3.swift)
//   magpie-net-bench resume MB DIR                 a cut body resumed against fetched whole (Resume.swift)
// LIST is a file of URLs, one per line.
import AsyncHTTPClient
import Foundation
import Magpie
import NIOCore
import Synchronization

let args = CommandLine.arguments
func option(_ name: String, _ fallback: Int) -> Int {
    guard let i = args.firstIndex(of: name), i + 1 < args.count, let v = Int(args[i + 1]) else { return fallback }
    return v
}
guard args.count >= 4 else {
    print("usage: magpie-net-bench raw|compare|warm|coalesce LIST|URL DIR [-j N] [-n N]")
    exit(64)
}
let mode = args[1]
let concurrency = option("-j", 8)

func seconds(_ body: () async throws -> Void) async rethrows -> Double {
    let start = ContinuousClock.now
    try await body()
    let d = ContinuousClock.now - start
    return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}

func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }

/// CPU seconds this process has used (user + system).
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func s(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return s(usage.ru_utime) + s(usage.ru_stime)
}

func readList(_ path: String) throws -> [URL] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").compactMap { URL(string: String($0)) }
}

/// The baseline: AsyncHTTPClient with the same pool size, `concurrency` requests in flight,
/// each body collected and, given a directory, written to a temporary file renamed into place.
func rawFetch(_ urls: [URL], into dir: String?) async throws -> Int {
    var configuration = HTTPClient.Configuration()
    configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = concurrency
    let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    let total = Mutex(0)
    do {
        try await BoundedConcurrency.forEach(count: urls.count, limit: concurrency) { i in
            let response = try await client.execute(
                HTTPClientRequest(url: urls[i].absoluteString), timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 64 << 20)
            if let dir {
                // Plain POSIX calls, and the least a cache that survives crashes must do (the
                // disk-cache benchmark's baseline too): a temporary file renamed into place.
                let temporary = dir + "/.tmp-\(i)"
                let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                guard fd >= 0 else { throw POSIXError(.EIO) }
                let written = body.withUnsafeReadableBytes { write(fd, $0.baseAddress, $0.count) }
                close(fd)
                guard written == body.readableBytes,
                    rename(temporary, dir + "/\(i)." + urls[i].pathExtension) == 0
                else { throw POSIXError(.EIO) }
            }
            total.withLock { $0 += body.readableBytes }
        }
    } catch {
        try? await client.shutdown()
        throw error
    }
    try await client.shutdown()
    return total.withLock { $0 }
}

/// `operation` on each of `urls`, `concurrency` at a time, results dropped.
func forEachConcurrently(_ urls: [URL], _ operation: @escaping @Sendable (URL) async throws -> Void) async throws {
    try await BoundedConcurrency.forEach(count: urls.count, limit: concurrency) { i in try await operation(urls[i]) }
}

/// `urls` through `downloader`, `concurrency` at a time, bodies dropped.
func downloadAll(_ urls: [URL], _ downloader: ImageDownloader) async throws {
    try await forEachConcurrently(urls) { _ = try await downloader.download($0) }
}

func makeManager(_ dir: String) throws -> ImageManager {
    try? FileManager.default.removeItem(atPath: dir)
    let cache = try ImageCache(
        memory: .init(cleanInterval: nil), disk: .init(directory: dir, sizeLimit: 0, sweepInterval: nil))
    return ImageManager(
        cache: cache, downloader: ImageDownloader(config: .init(maxConcurrentDownloadsPerHost: concurrency)))
}

switch mode {
case "floor":
    // The least any disk cache must do with the bytes: the served files, already in memory, written
    // to new files by one thread with plain POSIX calls (no rename, no checksum, no index).
    // Medians of 5 rounds, reported beside the budget the bytes-only target leaves.
    let source = args[2]
    let names = try FileManager.default.contentsOfDirectory(atPath: source).filter { !$0.hasPrefix(".") }.sorted()
    let bodies = try names.map { Array(try Data(contentsOf: URL(fileURLWithPath: source + "/" + $0))) }
    var rounds: [Double] = []
    for round in 0..<5 {
        let dir = args[3] + "/floor-\(round)"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        rounds.append(
            try await seconds {
                for (i, body) in bodies.enumerated() {
                    let fd = open(dir + "/\(i)", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                    guard fd >= 0 else { throw POSIXError(.EIO) }
                    let written = body.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                    close(fd)
                    guard written == body.count else { throw POSIXError(.EIO) }
                }
            })
        try? FileManager.default.removeItem(atPath: dir)
    }
    let total = bodies.reduce(0) { $0 + $1.count }
    print(
        String(
            format: "writing the same %d files (%.1f MiB) from memory, one thread, plain write: %.3f s (median of 5)",
            bodies.count, Double(total) / 1048576, median(rounds)))

case "raw":
    let urls = try readList(args[2])
    try FileManager.default.createDirectory(atPath: args[3], withIntermediateDirectories: true)
    var bytes = 0
    let t = try await seconds { bytes = try await rawFetch(urls, into: args[3]) }
    print(String(format: "raw fetch: %d URLs, %.1f MiB in %.3f s", urls.count, Double(bytes) / 1048576, t))

case "compare":
    // The issue's baseline is a plain AsyncHTTPClient loop that fetches and keeps nothing. Shown
    // beside it, same run, same concurrency: that loop writing each body to a file (temporary
    // file and rename), the downloader's HTTP transport alone, and ImageDownloader alone (no
    // cache). Five rounds, each side going first in turn.
    let urls = try readList(args[2])
    let work = args[3]
    var times: [String: [Double]] = [:]
    var cpu: [String: [Double]] = [:]
    let sides = ["raw", "raw+write", "loader", "downloader", "prefetch"]
    for round in 0..<5 {
        for offset in 0..<sides.count {
            let side = sides[(round + offset) % sides.count]
            let cpuBefore = cpuSeconds()
            defer { cpu[side, default: []].append(cpuSeconds() - cpuBefore) }
            switch side {
            case "raw":
                times[side, default: []].append(try await seconds { _ = try await rawFetch(urls, into: nil) })
            case "raw+write":
                let rawDir = work + "/raw-\(round)"
                try? FileManager.default.removeItem(atPath: rawDir)
                try FileManager.default.createDirectory(atPath: rawDir, withIntermediateDirectories: true)
                times[side, default: []].append(try await seconds { _ = try await rawFetch(urls, into: rawDir) })
                try? FileManager.default.removeItem(atPath: rawDir)
            case "loader":
                // The downloader's HTTP transport alone: what is left is the downloader's own work.
                let loader = HTTPDataLoader(perHostConnections: concurrency)
                times[side, default: []].append(
                    try await seconds {
                        try await forEachConcurrently(urls) {
                            _ = try await loader.load(DataRequest(url: $0), progress: { _, _ in })
                        }
                    })
                try await loader.shutdown()
            case "downloader":
                let downloader = ImageDownloader(config: .init(maxConcurrentDownloadsPerHost: concurrency))
                times[side, default: []].append(try await seconds { try await downloadAll(urls, downloader) })
                try await downloader.shutdown()
            default:
                let dir = work + "/prefetch-\(round)"
                let manager = try makeManager(dir)
                let t = await seconds {
                    let prefetcher = ImagePrefetcher(
                        urls: urls, manager: manager, maxConcurrentDownloads: concurrency, diskOnly: true)
                    let summary = await prefetcher.start()
                    precondition(
                        summary.completed.count == urls.count,
                        "prefetch failed: \(summary.failed.first.map { "\($0.error)" } ?? "")")
                }
                times[side, default: []].append(t)
                await manager.cache.shutdown()
                try await manager.downloader.shutdown()
                try? FileManager.default.removeItem(atPath: dir)
            }
        }
    }
    let m = times.mapValues(median)
    print(
        String(
            format:
                "bytes-only, medians of 5: AsyncHTTPClient loop %.3f s, the same writing files (temp + rename) %.3f s, "
                + "HTTPDataLoader alone %.3f s, ImageDownloader alone %.3f s, disk-only prefetch %.3f s: "
                + "throughput ratio %.2f (%.2f against the writing loop; the loader alone %.2f, the downloader alone %.2f)",
            m["raw"]!, m["raw+write"]!, m["loader"]!, m["downloader"]!, m["prefetch"]!, m["raw"]! / m["prefetch"]!,
            m["raw+write"]! / m["prefetch"]!, m["raw"]! / m["loader"]!, m["raw"]! / m["downloader"]!))
    print(
        "CPU seconds of this process (medians, nginx not included): "
            + sides.map { "\($0) " + String(format: "%.3f", median(cpu[$0]!)) }.joined(separator: ", "))

case "resume":
    try await measureResume(megabytes: Int(args[2]) ?? 20)
case "s3":
    try await measureS3(endpoint: URL(string: args[2])!, nginx: args[3])

case "policy":
    try await measurePolicy(try readList(args[2]))

case "prefetch", "fetch", "download", "loader":
    // One side of `compare` alone, five times (for profiling); "download" is the downloader
    // alone, "loader" its HTTP transport alone.
    let urls = try readList(args[2])
    for round in 0..<5 {
        if mode == "loader" {
            let loader = HTTPDataLoader(perHostConnections: concurrency)
            try await forEachConcurrently(urls) {
                _ = try await loader.load(DataRequest(url: $0), progress: { _, _ in })
            }
            try await loader.shutdown()
            continue
        }
        if mode == "download" {
            let downloader = ImageDownloader(config: .init(maxConcurrentDownloadsPerHost: concurrency))
            try await downloadAll(urls, downloader)
            try await downloader.shutdown()
            continue
        }
        if mode == "fetch" {
            _ = try await rawFetch(urls, into: nil)
            continue
        }
        let manager = try makeManager(args[3] + "/prefetch-only-\(round)")
        _ = await ImagePrefetcher(urls: urls, manager: manager, maxConcurrentDownloads: concurrency, diskOnly: true)
            .start()
        await manager.cache.shutdown()
        try await manager.downloader.shutdown()
    }

case "warm":
    let urls = Array(try readList(args[2]).prefix(1000))
    let manager = try makeManager(args[3] + "/warm")
    let options = try ImageOptions.make { make in make.size.lessThanOrEqualTo(256) }
    await withTaskGroup(of: Void.self) { group in
        for url in urls {
            group.addTask { _ = try? await manager.retrieveImage(with: .network(url), options: options) }
        }
    }
    let rounds = Int(ProcessInfo.processInfo.environment["MAGPIE_WARM_ROUNDS"] ?? "") ?? 200
    // On the global executor, as a server's request handlers run: top-level code is on the main
    // actor, and every call from there would hop to the pool and back.
    let (hits, t) = try await Task.detached {
        var hits = 0
        let t = try await seconds {
            for _ in 0..<rounds {
                for url in urls {
                    let result = try await manager.retrieveImage(with: .network(url), options: options)
                    if result.cacheType == .memory { hits += 1 }
                }
            }
        }
        return (hits, t)
    }.value
    precondition(hits == rounds * urls.count, "not all memory hits: \(hits)")
    print(
        String(format: "warm memory retrievals: %.0f per second on one task (%d in %.3f s)", Double(hits) / t, hits, t))
    await manager.cache.shutdown()
    try await manager.downloader.shutdown()

case "coalesce":
    try await measureCoalesce(url: URL(string: args[2])!, dir: args[3])

default:
    print("unknown mode \(mode)")
    exit(64)
}
