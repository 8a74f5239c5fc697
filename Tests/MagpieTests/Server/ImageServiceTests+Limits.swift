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
