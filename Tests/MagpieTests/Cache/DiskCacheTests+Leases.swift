import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie

/// Download leases: one holder per key among the processes (and caches) sharing a folder, given
/// back on release or by the kernel when the holder dies, and waited for a bounded time.
extension DiskCacheTests {
    /// Within a process the lease is shared (its flights are coalesced by the downloader); the
    /// file goes with the last release, and leases can be turned off.
    @Test func aProcessSharesItsLeaseAndTheFileGoesWithTheLastRelease() throws {
        let dir = try TemporaryDirectory()
        let a = try DiskCache(config: .init(directory: dir.path("cache"), sweepInterval: nil))
        let b = try DiskCache(config: .init(directory: dir.path("cache"), sweepInterval: nil))
        func leaseFiles() throws -> Int {
            try FileManager.default.contentsOfDirectory(atPath: dir.path("cache")).filter { $0.hasPrefix(".lease-") }
                .count
        }
        guard case .acquired(let first) = a.tryDownloadLease(forKey: "k"),
            case .acquired(let second) = b.tryDownloadLease(forKey: "k")
        else {
            Issue.record("not acquired")
            return
        }
        first.release()
        first.release()
        #expect(try leaseFiles() == 1, "still held by the second holder")
        second.release()
        #expect(try leaseFiles() == 0)
        var off = DiskCache.Config(directory: dir.path("cache"), sweepInterval: nil)
        off.downloadLeaseTimeout = nil
        if case .unavailable = try DiskCache(config: off).tryDownloadLease(forKey: "k") {
        } else {
            Issue.record("leases off, yet one was given")
        }
    }

    @Test func aKilledHoldersLeaseIsFree() throws {
        let dir = try TemporaryDirectory()
        let child = try ChildProcess(Helper.writer, ["lease", dir.path("cache"), "k"])
        #expect(child.readLine() == "held")
        let cache = try DiskCache(config: .init(directory: dir.path("cache"), sweepInterval: nil))
        if case .busy = cache.tryDownloadLease(forKey: "k") {} else { Issue.record("the child's lease was not seen") }
        child.killHard()
        guard case .acquired(let lease) = cache.tryDownloadLease(forKey: "k") else {
            Issue.record("the kernel did not release the dead holder's lease")
            return
        }
        lease.release()
    }

    /// A holder that never finishes is waited for at most the folder's lease timeout; then the
    /// retrieval downloads itself.
    @Test func aHungHolderIsWaitedForABoundedTime() async throws {
        let dir = try TemporaryDirectory()
        let server = try await LoopbackServer { _ in .ok(NetFixture.jpeg, contentType: "image/jpeg") }
        let url = URL(string: server.baseURL + "/a.jpg")!
        var config = DiskCache.Config(directory: dir.path("cache"), sweepInterval: nil)
        config.downloadLeaseTimeout = .milliseconds(300)
        let holder = try ChildProcess(Helper.writer, ["lease", dir.path("cache"), url.absoluteString])
        #expect(holder.readLine() == "held")
        let manager = ImageManager(cache: try ImageCache(memory: .init(cleanInterval: nil), disk: config))
        let started = ContinuousClock.now
        let result = try await manager.retrieveData(with: .network(url))
        #expect(result.data == NetFixture.jpeg && server.requestCount("/a.jpg") == 1)
        #expect(ContinuousClock.now - started >= .milliseconds(300), "waited for the holder first")
        holder.killHard()
        await manager.cache.shutdown()
        try await manager.downloader.shutdown()
        try await server.shutdown()
    }
}
