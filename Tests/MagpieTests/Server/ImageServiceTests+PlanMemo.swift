import Foundation
import MagpieLoopback
import MagpieTestSupport
import Synchronization
import Testing

@testable import Magpie
@testable import MagpieServer

/// The memo of parsed requests gives what parsing gives: `exp` is checked again on every
/// request, the answer to `Accept` still chooses the format, and a refused request is refused
/// every time.
extension ImageServiceTests {
    @Test func rememberedRequestsAreCheckedAgainForExpiryAndAccept() async throws {
        let clock = Mutex<Double>(2_000_000_000)
        let h = try await Self.harness(Self.images, { $0.autoWebP = true }, now: { clock.withLock { $0 } })
        let expiring = h.target("exp:2000000100/rs:fit:24:24", "/a.jpg")
        #expect(await h.get(expiring).header("Cache-Control") == "public, max-age=100")
        clock.withLock { $0 += 60 }
        let again = await h.get(expiring)
        #expect(again.status == 200 && again.header("Cache-Control") == "public, max-age=40")
        #expect(h.service.plans.count == 1)
        clock.withLock { $0 += 60 }
        let expired = await h.get(expiring)
        #expect(expired.status == 403 && String(decoding: expired.body, as: UTF8.self).contains("expired"))

        let auto = h.target("rs:fit:24:24", "/a.jpg")
        for _ in 0..<2 {
            let webp = await h.get(auto, headers: [("Accept", "image/avif,image/webp,*/*")])
            #expect(webp.header("Content-Type") == "image/webp" && webp.header("Vary") == "Accept")
            let jpeg = await h.get(auto, headers: [("Accept", "*/*")])
            #expect(jpeg.header("Content-Type") == "image/jpeg" && jpeg.header("Vary") == "Accept")
        }

        var forged = Array(auto.utf8)
        forged[3] = forged[3] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        for _ in 0..<2 { #expect(await h.get(String(decoding: forged, as: UTF8.self)).status == 403) }
        #expect(h.origin.requestCount("/a.jpg") == 1)
        try await h.finish()
    }

    @Test func thePlanMemoIsBounded() {
        let memo = PlanMemo(capacity: 4)
        let plan = ImageService.Plan(
            source: URL(string: "http://a/b")!, options: ImageOptions(), maxAge: 1, vary: nil,
            expires: nil, key: "k")
        // A target parsed once is not remembered: cold traffic leaves the memo empty.
        for i in 0..<20 { memo.remember(plan, for: .init(target: "/once-\(i)", features: ClientFeatures())) }
        #expect(memo.count == 0)
        #expect(memo.plan(for: .init(target: "/once-19", features: ClientFeatures())) == nil)
        // Parsed twice, it is; and the memo stays within two generations.
        for i in 0..<20 {
            for _ in 0..<2 { memo.remember(plan, for: .init(target: "/\(i)", features: ClientFeatures())) }
        }
        #expect(memo.count <= 8)
        #expect(memo.plan(for: .init(target: "/19", features: ClientFeatures())) != nil)
        #expect(memo.plan(for: .init(target: "/0", features: ClientFeatures())) == nil)
        let long = "/" + String(repeating: "a", count: PlanMemo.longestTarget)
        for _ in 0..<2 { memo.remember(plan, for: .init(target: long, features: ClientFeatures())) }
        #expect(memo.plan(for: .init(target: long, features: ClientFeatures())) == nil)
    }
}
