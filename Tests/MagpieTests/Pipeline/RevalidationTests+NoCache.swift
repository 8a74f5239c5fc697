import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie

/// `no-cache`: stored, but served only after a successful revalidation, every time. No stale use
/// of it, as with `must-revalidate`: not when the origin fails (with `stale-if-error` or the
/// options' `servesStaleOnError`), not in the background (`stale-while-revalidate` or the options).
extension RevalidationTests {
    @Test(arguments: [
        ("no-cache", "503, the option", 503),
        ("no-cache", "closed, the option", 0),
        ("no-cache, stale-if-error=600", "503, the header", 503),
        ("no-cache, stale-if-error=600", "closed, the header", 0),
    ])
    func noCacheIsNeverServedWhenTheOriginFails(cacheControl: String, label: String, status: Int) async throws {
        try await withOrigin { origin, server in
            origin.set("/n.jpg") { $0.cacheControl = cacheControl }
            let h = try PipelineHarness()
            let url = NetFixture.url(server, "/n.jpg")
            let o = options {
                $0.retry = .times(0)
                $0.cache.http.servesStaleOnError = label.hasSuffix("the option")
                $0.request.ignoresFailedURLMemory = true
            }
            _ = try await h.manager.retrieveImage(with: .network(url), options: o)
            let key = h.manager.cacheKey(for: .network(url), options: o)
            #expect(h.cache.diskStorage.entryInfo(forKey: key)?.freshness.noCache == true, "\(label)")
            // While the origin answers, every use is a revalidation that the origin confirms.
            #expect(try await h.manager.retrieveImage(with: .network(url), options: o).cacheType == .disk)
            #expect(origin.conditionalRequests("/n.jpg") == 1 && h.manager.statistics.notModified == 1)
            origin.set("/n.jpg") {
                if status == 0 { $0.closesConditional = true } else { $0.conditionalStatus = status }
            }
            await #expect(throws: ImageRetrieveError.self, "\(label): served without a revalidation") {
                try await h.manager.retrieveImage(with: .network(url), options: o)
            }
            #expect(h.manager.statistics.staleServed == 0, "\(label)")
            #expect(origin.conditionalRequests("/n.jpg") == 2, "\(label)")
            // The entry stays for the next revalidation: once the origin is back, a 304 serves it.
            origin.set("/n.jpg") {
                $0.conditionalStatus = nil
                $0.closesConditional = false
            }
            #expect(try await h.manager.retrieveImage(with: .network(url), options: o).cacheType == .disk)
            #expect(h.manager.statistics.notModified == 2 && origin.conditionalRequests("/n.jpg") == 3)
            try await h.finish()
        }
    }

    @Test(arguments: ["no-cache, stale-while-revalidate=600", "no-cache"])
    func noCacheIsNeverServedBeforeItsRevalidation(cacheControl: String) async throws {
        try await withOrigin { origin, server in
            origin.set("/w.jpg") { $0.cacheControl = cacheControl }
            let h = try PipelineHarness()
            let url = NetFixture.url(server, "/w.jpg")
            // The option asks for stale serving whatever the header says; no-cache forbids it.
            let o = options { $0.cache.http.servesStaleWhileRevalidating = true }
            _ = try await h.manager.retrieveImage(with: .network(url), options: o)
            let gate = Gate()
            origin.conditionalGate.withLock { $0 = gate }
            let manager = h.manager
            let caller = Task { try await manager.retrieveImage(with: .network(url), options: o) }
            await eventually("the revalidation reached the origin") { origin.conditionalRequests("/w.jpg") == 1 }
            // The origin holds the 304: the caller is still waiting for it, nothing was served.
            #expect(h.manager.statistics.staleServed == 0 && h.manager.backgroundRevalidationsInFlight == 0)
            #expect(h.manager.statistics.notModified == 0)
            gate.open()
            let result = try await caller.value
            #expect(result.cacheType == .disk && h.manager.statistics.notModified == 1)
            #expect(h.manager.statistics.staleServed == 0, "\(cacheControl)")
            try await h.finish()
        }
    }

    /// A 304 without `Cache-Control` keeps `no-cache`; one that restates its directives replaces it.
    @Test func noCacheSurvivesA304ThatDoesNotRestateIt() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let stored = EntryFreshness(
            HTTPCacheHeaders([HTTPHeaderField("Cache-Control", "no-cache")]), receivedAt: now, now: now)
        #expect(stored?.noCache == true && stored?.forbidsStaleUse == true && stored?.isFresh(at: 0) == true)
        #expect(stored?.isFresh(at: now.timeIntervalSinceReferenceDate) == false, "stale at once")
        let plain304 = HTTPCacheHeaders([HTTPHeaderField("ETag", "\"v1\"")], statusCode: 304)
        let kept = stored!.renewed(by: plain304, receivedAt: now, now: now.addingTimeInterval(10))
        #expect(kept.noCache && !kept.isFresh(at: now.addingTimeInterval(10).timeIntervalSinceReferenceDate))
        let restated = HTTPCacheHeaders([HTTPHeaderField("Cache-Control", "max-age=60")], statusCode: 304)
        let replaced = stored!.renewed(by: restated, receivedAt: now, now: now)
        #expect(!replaced.noCache && replaced.lifetime == 60)
    }
}
