import Foundation
import MagpieLoopback
import MagpieTestSupport
import Synchronization
import Testing

@testable import Magpie
@testable import MagpieServer

/// `s3://bucket/key` sources (imgproxy's `IMGPROXY_USE_S3`) through the service, from moto's S3
/// server on loopback.
extension ImageServiceTests {
    @Test(.enabled(if: S3Fixture.loaded != nil, Comment(rawValue: S3Fixture.skipped)))
    func s3SourcesAreServedWhenTurnedOnAndTheirRefusalsMirrored() async throws {
        let s3 = try #require(S3Fixture.loaded)
        let h = try await Self.harness(Self.images, { $0.s3Sources = true }) {
            $0.s3 = S3Configuration(endpoint: s3.endpointURL, credentials: s3.credentials)
            $0.addressPolicy = try! AddressPolicy.publicOnly.allowing(networks: ["127.0.0.1/32"])
        }
        let ok = await h.get(h.target("rs:fit:8:8/f:png", source: "s3://magpie-photos/albums/a%20cat%2B1.png"))
        #expect(ok.status == 200 && ok.header("Content-Type") == "image/png")
        let first = try Image(decoding: s3.bytes(s3.first))
        #expect(try Image(decoding: ok.body).width == min(8, first.width))
        let version = await h.get(
            h.target("w:4", source: "s3://magpie-photos/versioned.png%3FversionId%3D\(s3.versions[0])"))
        #expect(version.status == 200)
        // S3's 404 and 403 are mirrored; a bucket name S3 would refuse is the client's mistake.
        #expect(await h.get(h.target("w:4", source: "s3://magpie-photos/none.png")).status == 404)
        #expect(await h.get(h.target("w:4", source: "s3://magpie-private/secret.png")).status == 403)
        #expect(await h.get(h.target("w:4", source: "s3://Bad_Bucket!/a.png")).status == 400)
        #expect(await h.get(h.target("w:4", source: "s3://magpie-photos/a/../b.png")).status == 400)
        try await h.finish()

        // Off unless asked for; on, the address policy judges the endpoint as any origin.
        let off = try await Self.harness(Self.images)
        #expect(await off.get(off.target("w:4", source: "s3://magpie-photos/versioned.png")).status == 403)
        try await off.finish()
        let denied = try await Self.harness(Self.images, { $0.s3Sources = true }) {
            $0.s3 = S3Configuration(endpoint: s3.endpointURL, credentials: s3.credentials)
        }
        #expect(await denied.get(denied.target("w:4", source: "s3://magpie-photos/versioned.png")).status == 403)
        try await denied.finish()
    }

    @Test func allowedSourcesBindEverySchemeAndUnknownSchemesAreMalformed() async throws {
        let h = try await Self.harness(
            Self.images,
            {
                $0.s3Sources = true
                $0.allowedSources = ["s3://magpie-photos/"]
            }
        ) { $0.s3 = S3Configuration(endpoint: URL(string: "http://127.0.0.1:9")!) }
        #expect(await h.get(h.target("w:4", source: "s3://other-bucket/a.png")).status == 403)
        #expect(await h.get(h.target("w:4", source: "s3://magpie-photos.evil/a.png")).status == 403)
        #expect(await h.get(h.target("w:4", source: h.url("/a.png"))).status == 403)
        #expect(await h.get(h.target("w:4", source: "gopher://127.0.0.2/a.png")).status == 400)
        #expect(await h.get(h.target("w:4", source: "s3://magpie-photos:9000/a.png")).status == 400)
        try await h.finish()
    }
}

extension ImageServiceTests {
    /// An S3 endpoint that answers the signed GET's head and then stalls is a 504 once the download
    /// timeout passes, as a stalling origin is: the transport's limits hold for S3 too, and the
    /// failure is not cached.
    @Test func aStallingS3EndpointIsAGatewayTimeout() async throws {
        let seen = Mutex<[String]>([])
        let endpoint = try await LoopbackServer(host: "127.0.0.2") { request in
            seen.withLock { $0.append(request.path) }
            return .slow(
                status: 200, headers: [("Content-Type", "image/jpeg")], chunks: [NetFixture.jpeg],
                interval: .seconds(60), contentLength: NetFixture.jpeg.count)
        }
        let h = try await Self.harness(Self.images, downloadTimeout: .seconds(1), { $0.s3Sources = true }) {
            $0.s3 = S3Configuration(endpoint: URL(string: "http://127.0.0.2:\(endpoint.port)")!)
        }
        let stalled = await h.get(h.target("w:10", source: "s3://magpie-photos/a.jpg"))
        #expect(stalled.status == 504 && stalled.header("Cache-Control") == "no-store", "\(stalled.status)")
        #expect(seen.withLock { $0 } == ["/magpie-photos/a.jpg"])
        try await h.finish()
        try await endpoint.shutdown()
    }
}
