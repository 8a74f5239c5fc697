import Foundation
import MagpieTestSupport
import Testing

@testable import Magpie

extension RevalidationTests {
    /// Through the pipeline against Debian's nginx (`expires 60s`, its own ETag and
    /// Last-Modified): a stale thumbnail is renewed by a 304 with no body and no decode, and
    /// replaced once the file changes.
    @Test(.enabled(if: NginxServer.isAvailable)) func nginxRenewsAndReplacesThroughThePipeline() async throws {
        let nginx = try await NginxServer(serverDirectives: "expires 60s;")
        defer { nginx.stop() }
        let file = nginx.www + "/photo.jpg"
        try Data(NetFixture.jpeg).write(to: URL(fileURLWithPath: file))
        var times = [timespec(tv_sec: time(nil) - 60, tv_nsec: 0), timespec(tv_sec: time(nil) - 60, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, file, &times, 0) == 0)
        // nginx dates its responses by the wall clock: the injected one starts there.
        let clock = ManualClock()
        clock.advance(by: Date().timeIntervalSince(clock.now()))
        let h = try PipelineHarness(clock: clock)
        let url = nginx.url("/photo.jpg")
        let o = options { $0.processor = thumb }
        #expect(try await h.manager.retrieveImage(with: .network(url), options: o).cacheType == .none)
        let key = h.manager.cacheKey(for: .network(url), options: o)
        let entry = ImageCache.cacheKey(key, processorIdentifier: o.processorIdentifier)
        let stored = try #require(h.cache.diskStorage.entryInfo(forKey: entry))
        #expect(
            stored.metadata.etag != nil && (59...60).contains(stored.freshness.lifetime), "less the Date's apparent age"
        )
        clock.advance(by: 61)
        h.cache.clearMemoryCache()
        let renewed = try await h.manager.retrieveImage(with: .network(url), options: o)
        #expect(renewed.cacheType == .disk && h.manager.statistics.notModified == 1)
        #expect(h.manager.downloader.statistics.bytes == NetFixture.jpeg.count && h.manager.statistics.processed == 1)
        // The file changes: the next revalidation is a 200 with nginx's new ETag.
        try Data(NetFixture.png).write(to: URL(fileURLWithPath: file))
        clock.advance(by: 61)
        h.cache.clearMemoryCache()
        let replaced = try await h.manager.retrieveImage(with: .network(url), options: o)
        #expect(replaced.cacheType == .none && h.manager.statistics.revalidations == 2)
        #expect(h.cache.diskStorage.entryInfo(forKey: entry)?.metadata.etag != stored.metadata.etag)
        try await h.finish()
    }
}
