import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie

/// ``ImageManager/Configuration`` (what a manager is made with) and the grouped per-call
/// ``ImageOptions``: which settings a call inherits, and which make two calls share one flight.
@Suite struct ConfigurationTests {
    @Test func aCallWithoutOptionsAndTheDSLStartFromTheConfiguredDefaults() async throws {
        let dir = try TemporaryDirectory()
        let loader = ScriptedDataLoader { _ in .ok(NetFixture.jpeg, contentType: "image/jpeg") }
        let cache = try ImageCache(
            memory: .init(cleanInterval: nil), disk: .init(directory: dir.path("cache"), sweepInterval: nil))
        let manager = ImageManager(cache: cache, downloader: ImageDownloader(transports: ["http": loader])) {
            $0.defaultOptions.readPolicy = .cacheOnly
            $0.cacheKeyFilter = CacheKeyFilter(droppingQueryItems: ["sig"])
            $0.processingConcurrency = 1
        }
        #expect(manager.configuration.processingConcurrency == 1 && manager.defaultOptions.readPolicy == .cacheOnly)
        let url = loader.url("/a.jpg?sig=1")
        await #expect(throws: ImageRetrieveError.notCached(key: manager.cacheKey(for: .network(url)))) {
            _ = try await manager.retrieveImage(with: .network(url))
        }
        // The DSL's settings apply on top of the defaults: still cache only, with a timeout.
        await #expect(throws: ImageRetrieveError.self) {
            _ = try await manager.image(from: url) { make in make.request.timeout(.seconds(5)) }
        }
        #expect(loader.requestCount("/a.jpg") == 0, "cache only: nothing was asked of the origin")
        // A call's own options replace the defaults; the configured key filter still applies.
        var network = ImageOptions()
        network.cache.waitForCache = true
        _ = try await manager.retrieveImage(with: .network(url), options: network)
        #expect(loader.requestCount("/a.jpg") == 1)
        let other = loader.url("/a.jpg?sig=2")
        let hit = try await manager.retrieveImage(with: .network(other))
        #expect(hit.cacheType == .memory, "the signature is not part of the key, so the default cache-only call hits")
        await cache.shutdown()
        try await manager.downloader.shutdown()
    }

    @Test func groupsCompareByValueAndTransportSettingsDoNotSplitAFlight() throws {
        let dir = try TemporaryDirectory()
        let other = try ImageCache(disk: .init(directory: dir.path("other"), sweepInterval: nil))
        var a = ImageOptions()
        a.cache.disk.expiration = .days(3)
        a.request.headers.set("Accept", "image/webp")
        var b = a
        #expect(a == b && a.hashValue == b.hashValue)
        b.cache.target = other
        #expect(a != b, "another target cache is another result")
        b = a
        b.cache.http.usesHeuristicFreshness = true
        #expect(a != b && a.sharingKey != b.sharingKey, "freshness changes what is stored")
        b = a
        b.request.priority = .low
        b.request.timeout = .seconds(1)
        b.retry = .times(4)
        b.request.ignoresFailedURLMemory = true
        #expect(a != b && a.sharingKey == b.sharingKey, "transport settings share one flight")
        b.request.headers.set("Accept", "image/png")
        #expect(a.sharingKey != b.sharingKey, "headers can change the response, so they split it")
    }
}
