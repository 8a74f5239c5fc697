import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie
@testable import MagpieServer

extension ImageServiceTests {
    @Test func pastTheInFlightLimitRequestsAre429AtOnce() async throws {
        let gate = Gate()
        let h = try await Self.harness({ request in
            await gate.wait()
            return .ok(NetFixture.jpeg, contentType: "image/jpeg")
        }) { $0.maxInFlight = 2 }
        let service = h.service
        let held = [h.target("w:10", "/1.jpg"), h.target("w:10", "/2.jpg")]
        async let first = service.respond(to: ServiceRequest(method: "GET", target: held[0]))
        async let second = service.respond(to: ServiceRequest(method: "GET", target: held[1]))
        while service.requestsInFlight < 2 { await Task.yield() }
        let refused = await h.get(h.target("w:10", "/3.jpg"))
        #expect(refused.status == 429 && refused.header("Retry-After") == "1")
        #expect(await h.get("/health").status == 200, "health is never refused")
        gate.open()
        let (a, b) = await (first.status, second.status)
        #expect(a == 200 && b == 200)
        #expect(await h.get(h.target("w:10", "/3.jpg")).status == 200)
        #expect(h.origin.requestCount("/3.jpg") == 1, "the refused request fetched nothing")
        try await h.finish()
    }

    @Test func aSourceOverThePixelLimitIs422BeforeDecoding() async throws {
        let h = try await Self.harness(Self.images) { $0.maxSourcePixels = 96 * 64 - 1 }
        let r = await h.get(h.target("w:10", "/a.jpg"))
        #expect(r.status == 422)
        #expect(h.service.manager.statistics.processed == 0)
        let fits = try await Self.harness(Self.images) { $0.maxSourcePixels = 96 * 64 }
        #expect(await fits.get(fits.target("w:10", "/a.jpg")).status == 200)
        try await h.finish()
        try await fits.finish()
    }
}

extension ImageServiceTests {
    /// Variants asked for again are kept in memory (a hit skips the pipeline and the disk); one
    /// asked once is not (a crawl costs no memory); with no memory tier, a variant whose disk
    /// entry is gone is made again.
    @Test func variantsAskedAgainAreAnsweredFromMemory() async throws {
        for limit in [64 << 20, 0] {
            let h = try await Self.harness(Self.images) { $0.variantMemoryLimit = limit }
            let once = h.target("w:11", "/a.jpg")
            #expect(await h.get(once).header("X-Magpie-Cache") == "miss")
            let target = h.target("w:12", "/a.jpg")
            let first = await h.get(target)
            #expect(first.status == 200 && first.header("X-Magpie-Cache") == "miss")
            #expect(await h.get(target).header("X-Magpie-Cache") == "hit", "from disk, and now kept")
            try await h.service.manager.cache.clearDiskCache()
            h.service.manager.cache.clearMemoryCache()
            let again = await h.get(target)
            #expect(again.status == 200 && again.body == first.body && again.header("ETag") == first.header("ETag"))
            if limit > 0 {
                #expect(again.header("X-Magpie-Cache") == "hit" && h.origin.requestCount("/a.jpg") == 1)
            } else {
                #expect(again.header("X-Magpie-Cache") == "miss" && h.origin.requestCount("/a.jpg") == 2)
            }
            #expect(await h.get(once).header("X-Magpie-Cache") == "miss", "asked once: not in memory")
            try await h.finish()
        }
    }

    /// The doorkeeper admits a key on its second sighting, and stays bounded: past an eighth of
    /// its bits it starts afresh.
    @Test func theDoorkeeperAdmitsOnTheSecondSighting() {
        let door = Doorkeeper(bits: 1 << 14)  // small, so the loop below is short
        #expect(!door.admits("a") && door.admits("a") && door.admits("a"))
        var (i, admittedByMistake) = (0, 0)
        while door.remembered < door.bits / 8 {
            if door.admits("key-\(i)") { admittedByMistake += 1 }
            i += 1
        }
        #expect(admittedByMistake < door.bits / 8 / 10, "a table an eighth full mistakes few keys")
        // The next key not seen before clears it (one already set is admitted, as any other).
        var more = 0
        while door.remembered >= door.bits / 8 {
            _ = door.admits("more-\(more)")
            more += 1
        }
        #expect(door.remembered == 1 && more < 64, "cleared once an eighth of it was set")
        #expect(!door.admits("a"))
    }

    /// Expired variants are swept within a sixth of their lifetime (at least a second apart), not
    /// left holding memory until a sweep once a lifetime.
    @Test func expiredVariantsLeaveMemorySoon() async {
        let memory = VariantMemory(limit: 1 << 20, lifetime: 1.2)
        let result = RetrieveDataResult(
            data: [UInt8](repeating: 7, count: 4096), format: .png, cacheType: .none, revalidated: false,
            source: .network(URL(string: "http://127.0.0.2/a.png")!), coalesced: false, lastModified: nil)
        memory.store(result, forKey: "a")
        memory.store(result, forKey: "a")  // admitted on its second sighting
        #expect(memory.variant(forKey: "a")?.data.count == 4096 && memory.bytes > 4096)
        await eventually("the expired variant was swept") { memory.bytes == 0 }
        #expect(memory.variant(forKey: "a") == nil)
    }
}

extension ImageServiceTests {
    /// A stalling origin is 504 once the download timeout passes (never a 404 a CDN would keep);
    /// a dead one (nothing listening) is 502 at once; neither response is cacheable.
    @Test func stallingAndDeadOriginsAreGatewayErrors() async throws {
        let h = try await Self.harness(
            { _ in
                .slow(
                    status: 200, headers: [("Content-Type", "image/jpeg")], chunks: [NetFixture.jpeg],
                    interval: .seconds(60), contentLength: NetFixture.jpeg.count)
            }, downloadTimeout: .seconds(1))
        let stalled = await h.get(h.target("w:10", "/stall.jpg"))
        #expect(stalled.status == 504 && stalled.header("Cache-Control") == "no-store", "\(stalled.status)")
        let closed = try await LoopbackServer(host: "127.0.0.2") { _ in .respond(status: 204) }
        let port = closed.port
        try await closed.shutdown()
        let path = "/w:10/plain/http://127.0.0.2:\(port)/dead.jpg"
        let dead = await h.get("/" + URLSignature.sign(path, with: Self.key) + path)
        #expect(dead.status == 502 && dead.header("Cache-Control") == "no-store")
        try await h.finish()
    }
}

extension ImageServiceTests {
    /// A two-frame 1×1 GIF: over `maxFrames` 1 or `maxFramePixels` 1 it is 422 before decoding;
    /// at the limits it is served.
    @Test func aSourceOverTheFrameLimitsIs422BeforeDecoding() async throws {
        let gif: LoopbackServer.Handler = { _ in .ok(NetFixture.gif, contentType: "image/gif") }
        for (frames, framePixels, status) in [(1, 2, 422), (2, 1, 422), (2, 2, 200)] {
            let h = try await Self.harness(gif) {
                $0.maxFrames = frames
                $0.maxFramePixels = framePixels
            }
            let r = await h.get(h.target("w:1", "/anim.gif"))
            #expect(r.status == status, "frames \(frames), frame pixels \(framePixels)")
            if status == 422 { #expect(h.service.manager.statistics.processed == 0) }
            try await h.finish()
        }
    }

    /// Past the request timeout the answer is 503 at once, though the origin is still sending
    /// and the download timeout is far off; the same request is served once the origin answers.
    @Test func aRequestPastItsTimeoutIs503() async throws {
        let gate = Gate()
        let h = try await Self.harness({ _ in
            await gate.wait()
            return .ok(NetFixture.jpeg, contentType: "image/jpeg")
        }) { $0.requestTimeout = 2 }
        let started = ContinuousClock.now
        let late = await h.get(h.target("w:10", "/a.jpg"))
        #expect(late.status == 503 && late.header("Cache-Control") == "no-store")
        #expect(String(decoding: late.body, as: UTF8.self) == "request timed out\n")
        #expect(ContinuousClock.now - started < .seconds(9), "answered at the deadline, not the download's (10 s)")
        #expect(h.service.requestsInFlight == 0)
        gate.open()
        let served = await h.get(h.target("w:10", "/a.jpg"))
        #expect(served.status == 200, "\(served.status): \(String(decoding: served.body, as: UTF8.self))")
        try await h.finish()
    }
}
