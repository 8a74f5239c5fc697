import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie

/// The pipeline over ``ScriptedDataLoader``: the loopback server's scripts answered in memory, no
/// socket. Revalidation, and each way a reply can fail, as the HTTP transport reports them.
@Suite struct ScriptedLoaderTests {
    func options() -> ImageOptions {
        var o = ImageOptions()
        o.cache.waitForCache = true
        o.retry = .times(0)
        return o
    }

    @Test func aStaleEntryIsRenewedByA304WithoutASocket() async throws {
        let origin = RevalidatingOrigin()
        origin.set("/r.jpg") { _ in }
        let loader = ScriptedDataLoader(origin.handler)
        let h = try PipelineHarness(transports: ["http": loader])
        let url = loader.url("/r.jpg")
        #expect(try await h.manager.retrieveImage(with: .network(url), options: options()).cacheType == .none)
        h.clock.advance(by: 61)
        h.cache.clearMemoryCache()
        let renewed = try await h.manager.retrieveImage(with: .network(url), options: options())
        #expect(renewed.cacheType == .disk && renewed.image.width == 96)
        #expect(loader.requestCount("/r.jpg") == 2 && origin.conditionalRequests("/r.jpg") == 1)
        #expect(h.manager.statistics.notModified == 1 && h.manager.statistics.entriesRenewed == 1)
        try await h.finish()
    }

    @Test func failedRepliesFailAsTheHTTPTransportReportsThem() async throws {
        let loader = ScriptedDataLoader { request in
            switch request.path {
            case "/closed": return .close
            case "/raw": return .raw(Array("nonsense".utf8))
            case "/cut": return .truncated(status: 200, headers: [], body: [1, 2, 3], declaredLength: 100)
            case "/big": return .ok(NetFixture.jpeg, contentType: "image/jpeg")
            case "/slow":
                return .slow(
                    status: 200, headers: [], chunks: [NetFixture.jpeg], interval: .seconds(60), contentLength: nil)
            default: return .respond(status: 404)
            }
        }
        let h = try PipelineHarness(
            downloaderConfig: .init(maxBodySize: NetFixture.jpeg.count - 1), transports: ["http": loader])
        func failure(_ path: String) async -> ImageDownloadError? {
            do {
                _ = try await h.manager.retrieveImage(with: .network(loader.url(path)), options: options())
                return nil
            } catch {
                return error.downloadError  // typed: retrieveImage throws ImageRetrieveError only
            }
        }
        if case .connectionFailed = await failure("/closed") {} else { Issue.record("closed") }
        if case .connectionFailed = await failure("/raw") {} else { Issue.record("raw") }
        #expect(await failure("/cut") == .truncatedBody(received: 3, expected: 100))
        #expect(
            await failure("/big") == .bodyTooLarge(limit: NetFixture.jpeg.count - 1, declared: NetFixture.jpeg.count))
        #expect(
            await failure("/slow") == .bodyTooLarge(limit: NetFixture.jpeg.count - 1, declared: NetFixture.jpeg.count))
        #expect(await failure("/gone") == .badStatus(code: 404, retryAfter: nil))
        #expect(loader.requestCount("/gone") == 1)
        try await h.finish()
    }
}

extension ScriptedLoaderTests {
    struct Refused: Error, Hashable {
        var code: Int
    }

    /// A provider's or a processor's own error is kept typed under the retrieval error, and a
    /// cancelled retrieval is `.cancelled`: `retrieveImage` throws `ImageRetrieveError` only.
    @Test func causesStayTypedAndCancellationIsACase() async throws {
        struct FailingProvider: ImageDataProvider {
            var cacheKey: String { "failing" }
            func data() async throws -> [UInt8] { throw Refused(code: 7) }
        }
        let h = try PipelineHarness()
        do {
            _ = try await h.manager.retrieveImage(with: .provider(FailingProvider()))
            Issue.record("a failing provider succeeded")
        } catch {
            guard case .providerFailed(let key, let underlying as Refused) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(key == "failing" && underlying.code == 7)
            #expect(error == .providerFailed(key: "failing", underlying: Refused(code: 7)))
            #expect(error != .providerFailed(key: "failing", underlying: Refused(code: 8)))
        }
        let gate = Gate()
        let loader = ScriptedDataLoader { _ in
            await gate.wait()
            return .ok(NetFixture.jpeg, contentType: "image/jpeg")
        }
        let g = try PipelineHarness(transports: ["http": loader])
        let manager = g.manager
        let task = Task { () async throws(ImageRetrieveError) -> RetrieveImageResult in
            try await manager.retrieveImage(with: .network(loader.url("/held.jpg")))
        }
        await eventually("the download started") { loader.requestCount("/held.jpg") == 1 }
        task.cancel()
        let outcome = await task.result
        #expect(throws: ImageRetrieveError.cancelled) { try outcome.get() }
        gate.open()
        try await h.finish()
        try await g.finish()
    }
}
