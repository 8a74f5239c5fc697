// Tracing's cost per request, in process: ImageService answering a warm hit (a variant kept in
// memory, from a `local://` source) over and over, with no tracer (`off`, swift-distributed-
// tracing's no-op) or with MagpieTracer recording every span and exporting none (`on`). One
// tracer per process (InstrumentationSystem is bootstrapped once), so scripts/bench-tracing.sh runs
// the two sides as separate processes, alternately, and compares the medians. No HTTP: the
// difference in nanoseconds per request is what a span costs the service. Run in release mode:
//   magpie-trace-bench off|on IMAGE.jpg [REQUESTS]
import Foundation
import Magpie
import MagpieServer
import Tracing

let arguments = CommandLine.arguments
guard arguments.count >= 3, ["off", "on"].contains(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: magpie-trace-bench off|on IMAGE.jpg [REQUESTS]\n".utf8))
    exit(2)
}
let requests = arguments.count > 3 ? Int(arguments[3]) ?? 200_000 : 200_000
if arguments[1] == "on" { InstrumentationSystem.bootstrap(MagpieTracer(exporting: false)) }

let root = FileManager.default.temporaryDirectory.appendingPathComponent("magpie-trace-bench-\(getpid())").path
try FileManager.default.createDirectory(atPath: root + "/src", withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: root) }
try FileManager.default.copyItem(atPath: arguments[2], toPath: root + "/src/a.jpg")

let cache = try ImageCache(
    memory: .init(cleanInterval: nil), disk: .init(directory: root + "/cache", sweepInterval: nil))
let manager = ImageManager(
    cache: cache, downloader: ImageDownloader(transports: ["local": LocalRootLoader(root: root + "/src")]))
var configuration = ServiceConfiguration()
configuration.allowsUnsigned = true
configuration.localRoot = root + "/src"
let service = ImageService(manager: manager, configuration: configuration)
// What wrk sends, as the HTTP benchmark's requests carry it.
let request = ServiceRequest(
    method: "GET", target: "/unsafe/rs:fit:200:200/plain/local:///a.jpg", headers: [("Host", "127.0.0.1:8080")])

for _ in 0..<3 {
    let warm = await service.respond(to: request)
    guard warm.status == 200 else {
        FileHandle.standardError.write(Data("warm-up answered \(warm.status)\n".utf8))
        exit(1)
    }
}
// Timed off the main actor, so each request is not two hops between threads.
let rounds = await Task.detached {
    var rounds: [Double] = []
    for _ in 0..<7 {
        let start = ContinuousClock.now
        for _ in 0..<requests / 7 { _ = await service.respond(to: request) }
        rounds.append((ContinuousClock.now - start) / .nanoseconds(1) / Double(requests / 7))
    }
    return rounds
}.value
let cacheResult = await service.respond(to: request).header("X-Magpie-Cache") ?? "-"
print(String(format: "%@: %.0f ns per request (median of 7; cache %@)", arguments[1], rounds.sorted()[3], cacheResult))
await cache.shutdown()
try await manager.downloader.shutdown()
