import Foundation
import MagpieLoopback
import MagpieTestSupport

@testable import Magpie

extension NetFixture {
    /// A 1×1 two-frame GIF (black, then white), assembled by hand.
    static let gif: [UInt8] = {
        var g = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
        g += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]
        for lzw: [UInt8] in [[0x44, 0x01], [0x4C, 0x01]] {
            g += [0x21, 0xF9, 4, 0, 10, 0, 0, 0]
            g += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2] + lzw + [0]
        }
        return g + [0x3B]
    }()
}

/// A manager over a temporary cache and its own downloader, with an injected clock.
struct PipelineHarness {
    let dir: TemporaryDirectory
    let clock: ManualClock
    let cache: ImageCache
    let manager: ImageManager

    init(
        dir: TemporaryDirectory? = nil, clock: ManualClock = ManualClock(), filter: CacheKeyFilter = .none,
        downloaderConfig: ImageDownloader.Config = .init(), transports: [String: any DataLoading] = [:],
        inlineThreshold: Int = DiskCache.Config().inlineThreshold
    ) throws {
        self.dir = try dir ?? TemporaryDirectory()
        self.clock = clock
        cache = try ImageCache(
            memory: .init(totalCostLimit: 100_000_000, cleanInterval: nil),
            disk: .init(directory: self.dir.path("cache"), sweepInterval: nil, inlineThreshold: inlineThreshold),
            clock: clock)
        manager = ImageManager(
            cache: cache,
            downloader: ImageDownloader(
                config: downloaderConfig, transports: transports, clock: clock, sleep: { _ in })
        ) { $0.cacheKeyFilter = filter }
    }

    func finish() async throws {
        await cache.shutdown()
        try await manager.downloader.shutdown()
    }
}

func imageServer(_ gate: Gate? = nil) -> LoopbackServer.Handler {
    { request in
        if let gate { await gate.wait() }
        switch request.path {
        case "/anim.gif": return .ok(NetFixture.gif, contentType: "image/gif")
        case "/corrupt.jpg":
            return .ok([0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x11, count: 64), contentType: "image/jpeg")
        case "/png": return .ok(NetFixture.png, contentType: "image/png")
        case let p where p.hasPrefix("/img"): return .ok(NetFixture.jpeg, contentType: "image/jpeg")
        default: return .respond(status: 404)
        }
    }
}
