import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie

/// The pipeline follows what the origin says about caching its response: freshness caps the
/// expirations; no-store, Vary: * and private without credentials stay off the disk.
@Suite struct HTTPCachePolicyTests {
    func server() -> LoopbackServer.Handler {
        { request in
            let control: [String: String] = [
                "/max60.jpg": "max-age=60", "/nostore.jpg": "no-store", "/private.jpg": "private, max-age=600",
                "/long.jpg": "max-age=864000", "/aged.jpg": "max-age=100",
            ]
            var headers = [("Content-Type", "image/jpeg")]
            if let value = control[request.path] { headers.append(("Cache-Control", value)) }
            if request.path == "/aged.jpg" { headers.append(("Age", "70")) }
            if request.path == "/vary.jpg" { headers.append(("Vary", "*")) }
            return .respond(status: 200, headers: headers, body: NetFixture.jpeg)
        }
    }

    /// Reads restart an entry's lifetime by default (Kingfisher's `.cacheTime`), never its
    /// freshness: these responses carry no validators, so past their freshness they are fetched
    /// again whatever the reads did (`RevalidationTests` covers the default extension).
    func options(_ configure: (inout ImageOptions) -> Void = { _ in }) -> ImageOptions {
        var o = ImageOptions()
        o.cache.waitForCache = true
        configure(&o)
        return o
    }

    @Test func maxAgeShortensTheExpiry() async throws {
        try await withServer(server()) { server in
            let h = try PipelineHarness()
            let url = NetFixture.url(server, "/max60.jpg")
            _ = try await h.manager.retrieveImage(with: .network(url), options: options())
            h.clock.advance(by: 50)
            h.cache.clearMemoryCache()
            let hit = try await h.manager.retrieveImage(with: .network(url), options: options())
            #expect(hit.cacheType == .disk && server.requestCount("/max60.jpg") == 1)
            h.clock.advance(by: 11)  // 61 s after the download: stale in memory and on disk
            let refetched = try await h.manager.retrieveImage(with: .network(url), options: options())
            #expect(refetched.cacheType == .none && server.requestCount("/max60.jpg") == 2)
            // Age counts: 100 s of max-age with 70 already spent leaves 30.
            let aged = NetFixture.url(server, "/aged.jpg")
            _ = try await h.manager.retrieveImage(with: .network(aged), options: options())
            h.clock.advance(by: 31)
            _ = try await h.manager.retrieveImage(with: .network(aged), options: options())
            #expect(server.requestCount("/aged.jpg") == 2)
            try await h.finish()
        }
    }

    @Test func aLongerMaxAgeNeverLengthensTheExpiry() async throws {
        try await withServer(server()) { server in
            let h = try PipelineHarness()  // the disk cache keeps entries 7 days
            let url = NetFixture.url(server, "/long.jpg")  // the origin says 10
            // (A read would restart the cache's 7 days, up to the origin's 10: none here.)
            let unextended = options { $0.cache.disk.extendsOnAccess = .none }
            _ = try await h.manager.retrieveImage(with: .network(url), options: unextended)
            h.cache.clearMemoryCache()
            h.clock.advance(by: 6 * 86_400)
            #expect(try await h.manager.retrieveImage(with: .network(url), options: unextended).cacheType == .disk)
            h.clock.advance(by: 2 * 86_400)
            #expect(try await h.manager.retrieveImage(with: .network(url), options: unextended).cacheType == .none)
            #expect(server.requestCount("/long.jpg") == 2)
            try await h.finish()
        }
    }

    @Test func noStoreVaryStarAndPrivateStayOffTheDisk() async throws {
        try await withServer(server()) { server in
            let h = try PipelineHarness()
            for path in ["/nostore.jpg", "/vary.jpg", "/private.jpg"] {
                let url = NetFixture.url(server, path)
                let o = options()
                _ = try await h.manager.retrieveImage(with: .network(url), options: o)
                let key = h.manager.cacheKey(for: .network(url), options: o)
                #expect(!h.cache.isOnDisk(forKey: key), "\(path) written to disk")
                let again = try await h.manager.retrieveImage(with: .network(url), options: o)
                #expect(again.cacheType == .memory, "\(path): memory for this process")
            }
            #expect(h.manager.statistics.keptOffDisk == 3)
            // A private response to a request with credentials goes under its credential key.
            let url = NetFixture.url(server, "/private.jpg")
            let mine = options { $0.request.headers = [HTTPHeaderField("Authorization", "Bearer me")] }
            _ = try await h.manager.retrieveImage(with: .network(url), options: mine)
            let key = h.manager.cacheKey(for: .network(url), options: mine)
            #expect(CacheKeys.hasCredentials(key) && h.cache.isOnDisk(forKey: key))
            #expect(h.manager.statistics.keptOffDisk == 3)
            try await h.finish()
        }
    }

    @Test func theHeadersCanBeIgnored() async throws {
        try await withServer(server()) { server in
            let h = try PipelineHarness()
            let url = NetFixture.url(server, "/nostore.jpg")
            let o = options { $0.cache.http.respectsHeaders = false }
            _ = try await h.manager.retrieveImage(with: .network(url), options: o)
            #expect(h.cache.isOnDisk(forKey: h.manager.cacheKey(for: .network(url), options: o)))
            let short = NetFixture.url(server, "/max60.jpg")
            _ = try await h.manager.retrieveImage(with: .network(short), options: o)
            h.cache.clearMemoryCache()
            h.clock.advance(by: 3600)
            #expect(try await h.manager.retrieveImage(with: .network(short), options: o).cacheType == .disk)
            try await h.finish()
        }
    }

    @Test func theDiskOnlyPrefetcherFollowsThemToo() async throws {
        try await withServer(server()) { server in
            let h = try PipelineHarness()
            let urls = ["/nostore.jpg", "/max60.jpg"].map { NetFixture.url(server, $0) }
            let prefetcher = ImagePrefetcher(urls: urls, manager: h.manager, diskOnly: true)
            let summary = await prefetcher.start()
            #expect(summary.completed.count == 2 && summary.failed.isEmpty)
            let o = ImageOptions()
            #expect(!h.cache.isOnDisk(forKey: h.manager.cacheKey(for: .network(urls[0]), options: o)))
            #expect(h.cache.isOnDisk(forKey: h.manager.cacheKey(for: .network(urls[1]), options: o)))
            try await h.finish()
        }
    }
}

extension HTTPCachePolicyTests {
    @Test func theDSLSetsItOnceAndOnlyOnce() throws {
        #expect(ImageOptions().cache.http.respectsHeaders, "on by default")
        let off = try ImageOptions.make { make in make.cache.respectingHTTPHeaders(false).and.waitForCache() }
        #expect(!off.cache.http.respectsHeaders && off.cache.waitForCache)
        let line = #line + 2
        let lineError = optionsError { make in
            make.cache.respectingHTTPHeaders(false)
            make.cache.respectingHTTPHeaders()
        }
        #expect(
            lineError == .redefined("cache.respectingHTTPHeaders", first: here(line), second: here(line + 1)),
            "a second respectingHTTPHeaders was accepted")
    }
}

extension HTTPCachePolicyTests {
    /// `Vary` on fields the request sent: the disk entry keeps the request's variant, and a request
    /// that sends other values does not get it (one variant per URL is kept, as browsers do).
    @Test func varyKeepsTheVariantAndOtherValuesMiss() async throws {
        let seen = Recorder<String>()
        let handler: LoopbackServer.Handler = { request in
            seen.add(request.header("DPR") ?? "none")
            return .respond(
                status: 200,
                headers: [("Content-Type", "image/jpeg"), ("Vary", "DPR, Accept"), ("Cache-Control", "max-age=600")],
                body: NetFixture.jpeg)
        }
        try await withServer(handler) { server in
            let h = try PipelineHarness()
            let url = NetFixture.url(server, "/v.jpg")
            func dpr(_ value: String?) -> ImageOptions {
                options { o in if let value { o.request.headers = [HTTPHeaderField("DPR", value)] } }
            }
            #expect(try await h.manager.retrieveImage(with: .network(url), options: dpr("1")).cacheType == .none)
            let key = h.manager.cacheKey(for: .network(url), options: dpr("1"))
            #expect(key == h.manager.cacheKey(for: .network(url), options: dpr("2")), "one key: the variant is checked")
            let variant = try #require(h.cache.diskStorage.entryInfo(forKey: key)?.metadata.variant)
            #expect(variant.hasPrefix("accept,dpr;"))
            // Same values: a disk hit (never a memory one: memory is keyed by URL alone).
            #expect(try await h.manager.retrieveImage(with: .network(url), options: dpr("1")).cacheType == .disk)
            #expect(try await h.manager.retrieveImage(with: .network(url), options: dpr("1")).cacheType == .disk)
            // Other values, or none: a miss, and the new variant replaces the entry.
            #expect(try await h.manager.retrieveImage(with: .network(url), options: dpr("2")).cacheType == .none)
            #expect(try await h.manager.retrieveImage(with: .network(url), options: dpr(nil)).cacheType == .none)
            #expect(try await h.manager.retrieveImage(with: .network(url), options: dpr(nil)).cacheType == .disk)
            #expect(seen.all == ["1", "2", "none"] && h.manager.statistics.variantMisses == 2)
            #expect(h.cache.diskStorage.entryInfo(forKey: key)?.metadata.variant != variant)
            try await h.finish()
        }
    }
}

extension HTTPCachePolicyTests {
    /// An origin naming hundreds of fields in `Vary` does not get a huge header written: like
    /// `Vary: *`, the image stays in memory for that call only.
    @Test func anOversizedVaryStaysOffTheDisk() async throws {
        let names = (0..<300).map { "X-Field-\($0)" }.joined(separator: ", ")
        let handler: LoopbackServer.Handler = { _ in
            .respond(status: 200, headers: [("Content-Type", "image/jpeg"), ("Vary", names)], body: NetFixture.jpeg)
        }
        try await withServer(handler) { server in
            let h = try PipelineHarness()
            let url = NetFixture.url(server, "/wide.jpg")
            let o = options()
            #expect(try await h.manager.retrieveImage(with: .network(url), options: o).cacheType == .none)
            #expect(!h.cache.isOnDisk(forKey: h.manager.cacheKey(for: .network(url), options: o)))
            #expect(h.manager.statistics.keptOffDisk == 1 && h.cache.statistics.diskWriteFailures == 0)
            try await h.finish()
        }
    }
}
