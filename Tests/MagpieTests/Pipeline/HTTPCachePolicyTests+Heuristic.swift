import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie

/// A response that states no lifetime is fresh for the cache's own lifetime by default, as image
/// caches keep it; `usesHeuristicFreshness` gives it the browsers' heuristic instead (a tenth of
/// the time since `Last-Modified`), and none without `Last-Modified`.
extension HTTPCachePolicyTests {
    /// The test clock starts at 2027-01-15 08:00:00 UTC; `/dated.jpg` was last modified ten days
    /// before, so browsers keep it fresh for one day.
    func heuristicOrigin() -> LoopbackServer.Handler {
        { request in
            var headers = [
                ("Content-Type", "image/jpeg"), ("ETag", "\"h\""), ("Date", "Fri, 15 Jan 2027 08:00:00 GMT"),
            ]
            if request.path == "/dated.jpg" { headers.append(("Last-Modified", "Tue, 05 Jan 2027 08:00:00 GMT")) }
            if request.header("If-None-Match") == "\"h\"" { return .respond(status: 304, headers: headers) }
            return .respond(status: 200, headers: headers, body: NetFixture.jpeg)
        }
    }

    @Test func unstatedFreshnessIsTheCachesLifetimeOrTheBrowsersHeuristic() async throws {
        let loader = ScriptedDataLoader(heuristicOrigin())
        do {
            let h = try PipelineHarness(transports: ["http": loader])
            let dated = loader.url("/dated.jpg")
            let undated = loader.url("/undated.jpg")
            let plain = options { $0.cache.disk.extendsOnAccess = .none }
            let browser = try ImageOptions.make { make in
                make.cache.heuristicFreshness().and.waitForCache()
                make.cache.disk.extendsOnAccess(.none)
            }
            #expect(browser.cache.http.usesHeuristicFreshness && !plain.cache.http.usesHeuristicFreshness)
            // Default: both are fresh for the disk cache's 7 days, whatever Last-Modified says.
            for url in [dated, undated] { _ = try await h.manager.retrieveImage(with: .network(url), options: plain) }
            h.cache.clearMemoryCache()
            h.clock.advance(by: 2 * 86_400)
            for url in [dated, undated] {
                #expect(try await h.manager.retrieveImage(with: .network(url), options: plain).cacheType == .disk)
            }
            #expect(loader.requestCount("/dated.jpg") == 1 && loader.requestCount("/undated.jpg") == 1)
            // Heuristic: a day for the dated one; the undated one is stale at once and revalidated.
            let other = try PipelineHarness(transports: ["http": loader])
            for url in [dated, undated] {
                _ = try await other.manager.retrieveImage(with: .network(url), options: browser)
            }
            other.cache.clearMemoryCache()
            other.clock.advance(by: 86_000)
            #expect(try await other.manager.retrieveImage(with: .network(dated), options: browser).cacheType == .disk)
            #expect(loader.requestCount("/dated.jpg") == 2, "fresh within a tenth of its age: no request")
            #expect(try await other.manager.retrieveImage(with: .network(undated), options: browser).cacheType == .disk)
            #expect(other.manager.statistics.notModified == 1, "no Last-Modified: revalidated before use")
            other.clock.advance(by: 500)
            other.cache.clearMemoryCache()
            #expect(try await other.manager.retrieveImage(with: .network(dated), options: browser).cacheType == .disk)
            #expect(other.manager.statistics.notModified == 2, "past a day: revalidated")
            try await other.finish()
            try await h.finish()
        }
    }

    @Test func theHeuristicIsATenthOfTheAgeAtMostAWeek() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        func lifetime(_ fields: [(String, String)]) -> TimeInterval? {
            HTTPCacheHeaders(fields.map { HTTPHeaderField($0.0, $0.1) }).heuristicLifetime(receivedAt: now)
        }
        #expect(lifetime([("Last-Modified", "Tue, 05 Jan 2027 08:00:00 GMT")]) == 86_400)
        #expect(
            lifetime([("Last-Modified", "Thu, 01 Jan 2015 00:00:00 GMT")]) == TimeInterval(7 * 86_400), "at most a week"
        )
        #expect(lifetime([("Last-Modified", "Sat, 01 Jan 2050 00:00:00 GMT")]) == 0, "modified in the future")
        #expect(lifetime([("Last-Modified", "yesterday")]) == nil && lifetime([]) == nil)
        #expect(lifetime([("Last-Modified", "Tue, 05 Jan 2027 08:00:00 GMT"), ("Cache-Control", "max-age=5")]) == nil)
        // Counted from Date when there is one.
        let dated = [("Last-Modified", "Tue, 05 Jan 2027 08:00:00 GMT"), ("Date", "Wed, 06 Jan 2027 08:00:00 GMT")]
        #expect(lifetime(dated) == 8_640)
    }
}
