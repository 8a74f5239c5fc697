import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie

/// Serving stale images: while one background revalidation runs, and when the origin fails;
/// revalidation forced for fresh entries (`immutable` ones excepted).
extension RevalidationTests {
    @Test func staleWhileRevalidateReturnsAtOnceAndRefreshesOnce() async throws {
        try await withOrigin { origin, server in
            origin.set("/s.jpg") { $0.cacheControl = "max-age=60, stale-while-revalidate=600" }
            let h = try PipelineHarness()
            let url = NetFixture.url(server, "/s.jpg")
            _ = try await h.manager.retrieveImage(with: .network(url), options: options())
            h.clock.advance(by: 61)
            h.cache.clearMemoryCache()
            let gate = Gate()
            origin.conditionalGate.withLock { $0 = gate }
            // The origin holds the revalidation; both callers still get the image at once.
            for _ in 0..<2 {
                let stale = try await h.manager.retrieveImage(with: .network(url), options: options())
                #expect(stale.cacheType == .disk && stale.image.width == 96)
            }
            await eventually("the one revalidation reached the origin") { origin.conditionalRequests("/s.jpg") == 1 }
            #expect(h.manager.backgroundRevalidationsInFlight == 1)
            let stats = h.manager.statistics
            #expect(stats.staleServed == 2 && stats.backgroundRevalidations == 1)
            gate.open()
            await h.manager.waitForBackgroundRevalidations()
            #expect(h.manager.backgroundRevalidationsInFlight == 0)
            #expect(h.manager.statistics.notModified == 1 && h.manager.statistics.entriesRenewed == 1)
            // Renewed: fresh for another 60 s, served from disk with no request.
            h.clock.advance(by: 30)
            #expect(try await h.manager.retrieveImage(with: .network(url), options: options()).cacheType == .disk)
            #expect(origin.requests("/s.jpg").count == 2 && h.manager.statistics.staleServed == 2)
            // Past the window the caller waits for the revalidation again.
            origin.conditionalGate.withLock { $0 = nil }
            h.clock.advance(by: 31 + 600)
            h.cache.clearMemoryCache()
            _ = try await h.manager.retrieveImage(with: .network(url), options: options())
            #expect(h.manager.statistics.staleServed == 2 && h.manager.statistics.notModified == 2)
            try await h.finish()
        }
    }

    @Test func theOptionServesAnyStaleEntryWhileRevalidating() async throws {
        try await withOrigin { origin, server in
            origin.set("/t.jpg") { _ in }
            let h = try PipelineHarness()
            let url = NetFixture.url(server, "/t.jpg")
            let o = options { $0.cache.http.servesStaleWhileRevalidating = true }
            _ = try await h.manager.retrieveImage(with: .network(url), options: o)
            h.clock.advance(by: 3600)
            h.cache.clearMemoryCache()
            #expect(try await h.manager.retrieveImage(with: .network(url), options: o).cacheType == .disk)
            await eventually("the background revalidation renewed the entry") {
                h.manager.statistics.entriesRenewed == 1 && h.manager.backgroundRevalidationsInFlight == 0
            }
            try await h.finish()
        }
    }

    @Test func staleIfErrorServesTheImageWhileTheOriginIsDown() async throws {
        try await withOrigin { origin, server in
            origin.set("/u.jpg") { $0.cacheControl = "max-age=60, stale-if-error=300" }
            origin.set("/gone.jpg") { $0.cacheControl = "max-age=60, stale-if-error=300" }
            let h = try PipelineHarness()
            let url = NetFixture.url(server, "/u.jpg")
            let gone = NetFixture.url(server, "/gone.jpg")
            let o = options { $0.retry = .times(0) }
            for u in [url, gone] { _ = try await h.manager.retrieveImage(with: .network(u), options: o) }
            origin.set("/u.jpg") { $0.conditionalStatus = 503 }
            origin.set("/gone.jpg") { $0.conditionalStatus = 404 }
            h.clock.advance(by: 61)
            h.cache.clearMemoryCache()
            let served = try await h.manager.retrieveImage(with: .network(url), options: o)
            #expect(served.cacheType == .disk && h.manager.statistics.staleServed == 1)
            // A 404 says the image is gone: no stale stand-in.
            await #expect(throws: ImageRetrieveError.self) {
                try await h.manager.retrieveImage(with: .network(gone), options: o)
            }
            // Past the allowance the failure is the caller's, unless the options allow any.
            h.clock.advance(by: 300)
            var lenient = o
            lenient.request.ignoresFailedURLMemory = true
            await #expect(throws: ImageRetrieveError.self) {
                try await h.manager.retrieveImage(with: .network(url), options: lenient)
            }
            lenient.cache.http.servesStaleOnError = true
            #expect(try await h.manager.retrieveImage(with: .network(url), options: lenient).cacheType == .disk)
            #expect(h.manager.statistics.staleServed == 2)
            try await h.finish()
        }
    }

    @Test func forcedRevalidationAsksForFreshEntriesButNotImmutableOnes() async throws {
        try await withOrigin { origin, server in
            origin.set("/v.jpg") { $0.cacheControl = "max-age=3600" }
            origin.set("/w.jpg") { $0.cacheControl = "max-age=3600, immutable" }
            let h = try PipelineHarness()
            let urls = ["/v.jpg", "/w.jpg"].map { NetFixture.url(server, $0) }
            for u in urls { _ = try await h.manager.retrieveImage(with: .network(u), options: options()) }
            let forced = options { $0.readPolicy = .revalidate }
            for u in urls {
                #expect(try await h.manager.retrieveImage(with: .network(u), options: forced).cacheType == .disk)
            }
            #expect(origin.conditionalRequests("/v.jpg") == 1 && origin.conditionalRequests("/w.jpg") == 0)
            #expect(h.manager.statistics.notModified == 1)
            try await h.finish()
        }
    }
}

extension RevalidationTests {
    @Test func theDSLSetsRevalidationAndStaleServing() throws {
        let o = try ImageOptions.make { make in
            make.cache.revalidatingAlways().and.servingStale(whileRevalidating: true, onError: true)
        }
        #expect(
            o.readPolicy == .revalidate && o.cache.http.servesStaleWhileRevalidating && o.cache.http.servesStaleOnError)
        let plain = try ImageOptions.make { make in make.cache.servingStale(onError: true) }
        #expect(
            plain.readPolicy != .revalidate && !plain.cache.http.servesStaleWhileRevalidating
                && plain.cache.http.servesStaleOnError)
        let line = #line + 2
        let lineError = optionsError { make in
            make.cache.servingStale(onError: true)
            make.cache.servingStale(whileRevalidating: true)
        }
        #expect(
            lineError == .redefined("cache.servingStale", first: here(line), second: here(line + 1)),
            "a second servingStale was accepted")
        let first = #line + 2
        let firstError = optionsError { make in
            make.cache.revalidatingAlways()
            make.onlyFromCache()
        }
        #expect(
            firstError == .redefined("readPolicy", first: here(first), second: here(first + 1)),
            "revalidatingAlways with onlyFromCache was accepted")
    }
}

extension RevalidationTests {
    /// `must-revalidate`: once stale, only a successful revalidation serves the image, whatever
    /// `stale-if-error`, `stale-while-revalidate` or the options allow.
    @Test func mustRevalidateNeverServesStale() async throws {
        try await withOrigin { origin, server in
            origin.set("/m.jpg") {
                $0.cacheControl = "max-age=60, must-revalidate, stale-if-error=600, stale-while-revalidate=600"
            }
            let h = try PipelineHarness()
            let url = NetFixture.url(server, "/m.jpg")
            let o = options {
                $0.retry = .times(0)
                $0.cache.http.servesStaleOnError = true
                $0.cache.http.servesStaleWhileRevalidating = true
            }
            _ = try await h.manager.retrieveImage(with: .network(url), options: o)
            let key = h.manager.cacheKey(for: .network(url), options: o)
            #expect(h.cache.diskStorage.entryInfo(forKey: key)?.freshness.mustRevalidate == true)
            origin.set("/m.jpg") { $0.conditionalStatus = 503 }
            h.clock.advance(by: 61)
            h.cache.clearMemoryCache()
            await #expect(throws: ImageRetrieveError.self) {
                try await h.manager.retrieveImage(with: .network(url), options: o)
            }
            #expect(h.manager.statistics.staleServed == 0 && h.manager.backgroundRevalidationsInFlight == 0)
            // Confirmed by a 304 that restates its directives: they replace the stored ones.
            origin.set("/m.jpg") {
                $0.conditionalStatus = nil
                $0.cacheControl = "max-age=120"
            }
            var lenient = o
            lenient.request.ignoresFailedURLMemory = true
            #expect(try await h.manager.retrieveImage(with: .network(url), options: lenient).cacheType == .disk)
            let renewed = try #require(h.cache.diskStorage.entryInfo(forKey: key)?.freshness)
            #expect(renewed.lifetime == 120 && !renewed.mustRevalidate && renewed.staleIfError == 0)
            try await h.finish()
        }
    }
}
