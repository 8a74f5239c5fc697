import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie

/// Downloads waiting for a slot (``ImageDownloader/Config/maxConcurrentDownloads``) go by priority,
/// then arrival; a caller that joins a waiting download lifts it to its own priority, and a
/// retrieval's caller lifts the download under it. One slot, held by a gated request, so the
/// queue forms in a known order; every step waits on a count, never on time.
extension DownloaderTests {
    /// A downloader with one slot over a scripted origin whose `/first` waits for `gate`, and the
    /// paths in the order they reached it.
    static func oneSlot(_ gate: Gate) -> (ImageDownloader, ScriptedDataLoader, Recorder<String>) {
        let order = Recorder<String>()
        let loader = ScriptedDataLoader { request in
            order.add(request.path)
            if request.path == "/first" { await gate.wait() }
            return .ok(NetFixture.png, contentType: "image/png")
        }
        var config = ImageDownloader.Config()
        config.maxConcurrentDownloads = 1
        return (ImageDownloader(config: config, transports: ["http": loader]), loader, order)
    }

    /// A manager over `downloader`, its cache in `dir`.
    static func manager(over downloader: ImageDownloader, in dir: TemporaryDirectory) throws -> ImageManager {
        let cache = try ImageCache(
            memory: .init(cleanInterval: nil), disk: .init(directory: dir.path("cache"), sweepInterval: nil))
        return ImageManager(cache: cache, downloader: downloader)
    }

    @Test func waitingDownloadsGoByPriorityThenArrival() async throws {
        let gate = Gate()
        let (downloader, loader, order) = Self.oneSlot(gate)
        var tasks = [Task { _ = try await downloader.download(loader.url("/first")) }]
        await eventually("the first holds the slot") { order.all == ["/first"] }
        for (n, (path, priority)) in [("/a", TaskPriority.low), ("/b", .low), ("/c", .high), ("/d", .medium)]
            .enumerated()
        {
            tasks.append(Task(priority: priority) { _ = try await downloader.download(loader.url(path)) })
            await eventually("\(path) queued") { downloader.requestsQueued == n + 1 }
        }
        gate.open()
        for task in tasks { try await task.value }
        #expect(order.all == ["/first", "/c", "/d", "/a", "/b"])
        try await downloader.shutdown()
    }

    /// A prefetch a user now waits for: the high-priority caller joins the low one's download,
    /// which then goes before the other prefetches queued ahead of it.
    @Test func aCallerJoiningAWaitingDownloadLiftsIt() async throws {
        let gate = Gate()
        let (downloader, loader, order) = Self.oneSlot(gate)
        var tasks = [Task { _ = try await downloader.download(loader.url("/first")) }]
        await eventually("the first holds the slot") { order.all == ["/first"] }
        for (n, path) in ["/p1", "/p2", "/p3"].enumerated() {
            tasks.append(Task(priority: .low) { _ = try await downloader.download(loader.url(path)) })
            await eventually("\(path) queued") { downloader.requestsQueued == n + 1 }
        }
        tasks.append(Task(priority: .high) { _ = try await downloader.download(loader.url("/p3")) })
        await eventually("the user's call joined") { downloader.callersWaiting == 5 }
        gate.open()
        for task in tasks { try await task.value }
        #expect(order.all == ["/first", "/p3", "/p1", "/p2"])
        #expect(downloader.statistics.coalesced == 1)
        try await downloader.shutdown()
    }

    /// Through the manager: a caller at high priority joins a low retrieval's flight (no second
    /// download is asked for), and the download under that flight rises with it. The prefetcher's
    /// retrievals are low unless its options say otherwise.
    @Test func aRetrievalsCallerLiftsTheDownloadUnderIt() async throws {
        let gate = Gate()
        let (downloader, loader, order) = Self.oneSlot(gate)
        let dir = try TemporaryDirectory()
        let manager = try Self.manager(over: downloader, in: dir)
        #expect(ImagePrefetcher(urls: [], manager: manager).options.request.priority == .low)
        var tasks = [Task { _ = try await manager.retrieveData(with: .network(loader.url("/first"))) }]
        await eventually("the first holds the slot") { order.all == ["/first"] }
        for (n, path) in ["/q1", "/q2", "/q3"].enumerated() {
            tasks.append(Task(priority: .low) { _ = try await manager.retrieveData(with: .network(loader.url(path))) })
            await eventually("\(path) queued") { downloader.requestsQueued == n + 1 }
        }
        tasks.append(Task(priority: .high) { _ = try await manager.retrieveData(with: .network(loader.url("/q3"))) })
        await eventually("the caller joined the retrieval") { manager.dataCallersWaiting == 5 }
        gate.open()
        for task in tasks { try await task.value }
        #expect(order.all == ["/first", "/q3", "/q1", "/q2"])
        #expect(manager.statistics.coalesced == 1)
        #expect(downloader.statistics.coalesced == 0, "one download for /q3: the lift came through the flight")
        try await downloader.shutdown()
    }

    /// A waiting retrieval raised by name (Nuke's settable priority): a prefetch a user now waits
    /// for, through the manager and through the prefetcher that runs it.
    @Test(arguments: [false, true])
    func aWaitingRetrievalCanBeRaised(throughThePrefetcher: Bool) async throws {
        let gate = Gate()
        let (downloader, loader, order) = Self.oneSlot(gate)
        let dir = try TemporaryDirectory()
        let manager = try Self.manager(over: downloader, in: dir)
        let first = Task { _ = try await manager.retrieveData(with: .network(loader.url("/first"))) }
        await eventually("the first holds the slot") { order.all == ["/first"] }
        let urls = ["/r1", "/r2", "/r3"].map { loader.url($0) }
        let prefetcher = ImagePrefetcher(urls: urls, manager: manager, maxConcurrentDownloads: 3, diskOnly: true)
        var tasks: [Task<Void, any Error>] = []
        if throughThePrefetcher {
            tasks.append(Task { _ = await prefetcher.start() })
            await eventually("three prefetches queued") { downloader.requestsQueued == 3 }
        } else {
            for (n, url) in urls.enumerated() {
                tasks.append(Task(priority: .low) { _ = try await manager.retrieveData(with: .network(url)) })
                await eventually("\(url) queued") { downloader.requestsQueued == n + 1 }
            }
        }
        let raised =
            throughThePrefetcher
            ? prefetcher.raisePriority(of: .network(urls[2]), to: .high)
            : manager.raisePriority(of: .network(urls[2]), to: .high)
        #expect(raised)
        #expect(!manager.raisePriority(of: .network(loader.url("/not-running")), to: .high))
        gate.open()
        try await first.value
        for task in tasks { try await task.value }
        #expect(order.all.prefix(2) == ["/first", "/r3"], "\(order.all)")
        #expect(Set(order.all) == ["/first", "/r1", "/r2", "/r3"] && order.all.count == 4)
        try await downloader.shutdown()
    }
}
