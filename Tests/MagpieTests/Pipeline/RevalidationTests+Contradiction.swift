import Foundation
import MagpieLoopback
import MagpieTestSupport
import Synchronization
import Testing

@testable import Magpie

extension RevalidationTests {
    /// An origin that stores version "a" with `no-cache` (every use revalidates), then answers
    /// the conditional request with a 304 naming another validator, and an unconditional one
    /// with `answer`.
    final class ContradictingOrigin: Sendable {
        let byETag: Bool
        let answer: Mutex<LoopbackReply>
        let seen = Mutex<[(ifNoneMatch: String?, ifModifiedSince: String?)]>([])
        init(byETag: Bool, answer: LoopbackReply) {
            self.byETag = byETag
            self.answer = Mutex(answer)
        }

        static let first = ("\"a\"", "Mon, 02 Nov 2026 10:00:00 GMT")
        static let second = ("\"b\"", "Tue, 03 Nov 2026 10:00:00 GMT")

        func validators(_ which: (String, String)) -> [(String, String)] {
            byETag ? [("ETag", which.0)] : [("Last-Modified", which.1)]
        }

        var handler: LoopbackServer.Handler {
            { [self] request in
                let inm = request.header("If-None-Match")
                let ims = request.header("If-Modified-Since")
                let n = seen.withLock {
                    $0.append((inm, ims))
                    return $0.count
                }
                if n == 1 {
                    return .respond(
                        status: 200,
                        headers: [("Cache-Control", "no-cache"), ("Content-Type", "image/jpeg")]
                            + validators(Self.first),
                        body: NetFixture.jpeg)
                }
                if inm != nil || ims != nil {
                    return .respond(status: 304, headers: [("Cache-Control", "no-cache")] + validators(Self.second))
                }
                return answer.withLock { $0 }
            }
        }
    }

    @Test(arguments: [true, false])
    func a304NamingAnotherVersionDoesNotFreshenTheStoredOne(byETag: Bool) async throws {
        let origin = ContradictingOrigin(
            byETag: byETag,
            answer: .respond(
                status: 200, headers: [("Cache-Control", "no-cache"), ("Content-Type", "image/png")],
                body: NetFixture.png))
        try await withServer(origin.handler) { server in
            let h = try PipelineHarness()
            let url = NetFixture.url(server, "/v.img")
            let first = try await h.manager.retrieveImage(with: .network(url), options: options())
            #expect(first.image.width == 96, "version a, the JPEG")
            h.cache.clearMemoryCache()
            let second = try await h.manager.retrieveImage(with: .network(url), options: options())
            #expect(second.cacheType == .none && second.image.width == 40, "version b came down: the PNG")
            let seen = origin.seen.withLock { $0 }
            #expect(seen.count == 3, "stored, then a conditional request and one unconditional")
            if byETag {
                #expect(seen[1].ifNoneMatch == "\"a\"" && seen[2].ifNoneMatch == nil)
            } else {
                #expect(seen[1].ifModifiedSince == ContradictingOrigin.first.1 && seen[2].ifModifiedSince == nil)
            }
            #expect(h.manager.statistics.notModified == 0 && h.manager.statistics.entriesRenewed == 0)
            try await h.finish()
        }
    }

    @Test func aSecondContradictionIsAnErrorNotALoop() async throws {
        let origin = ContradictingOrigin(
            byETag: true, answer: .respond(status: 304, headers: [("ETag", "\"c\"")]))
        try await withServer(origin.handler) { server in
            let h = try PipelineHarness()
            let url = NetFixture.url(server, "/v.img")
            _ = try await h.manager.retrieveImage(with: .network(url), options: options())
            h.cache.clearMemoryCache()
            do {
                _ = try await h.manager.retrieveImage(with: .network(url), options: options())
                Issue.record("a 304 to an unconditional request was taken as an answer")
            } catch {
                #expect((error as? ImageRetrieveError)?.downloadError == .badStatus(code: 304, retryAfter: nil))
            }
            #expect(origin.seen.withLock { $0.count } == 3)
            try await h.finish()
        }
    }

    @Test func contradictionRules() {
        func r(_ headers: [(String, String)]) -> DataResponse {
            DataResponse(url: URL(string: "http://x/")!, statusCode: 304, headers: headers.map(HTTPHeaderField.init))
        }
        func q(_ headers: [(String, String)]) -> DataRequest {
            DataRequest(url: URL(string: "http://x/")!, headers: headers.map(HTTPHeaderField.init))
        }
        let inm = q([("If-None-Match", "\"a\", W/\"w\"")])
        #expect(!ImageDownloader.contradicts(r([("ETag", "\"a\"")]), conditionalRequest: inm))
        #expect(ImageDownloader.contradicts(r([("ETag", "\"b\"")]), conditionalRequest: inm))
        #expect(!ImageDownloader.contradicts(r([("ETag", "W/\"a\"")]), conditionalRequest: inm), "weakly equal")
        #expect(ImageDownloader.contradicts(r([("ETag", "\"w\"")]), conditionalRequest: inm), "strong needs strong")
        #expect(!ImageDownloader.contradicts(r([]), conditionalRequest: inm), "no validator: confirms")
        let ims = q([("If-Modified-Since", "Mon, 02 Nov 2026 10:00:00 GMT")])
        #expect(
            !ImageDownloader.contradicts(
                r([("Last-Modified", "Mon, 02 Nov 2026 10:00:00 GMT")]), conditionalRequest: ims))
        #expect(
            ImageDownloader.contradicts(
                r([("Last-Modified", "Tue, 03 Nov 2026 10:00:00 GMT")]), conditionalRequest: ims))
        #expect(
            !ImageDownloader.contradicts(
                r([("ETag", "\"a\""), ("Last-Modified", "Mon, 02 Nov 2026 10:00:00 GMT")]), conditionalRequest: ims),
            "no stored tag to compare with: the date decides")
    }
}
