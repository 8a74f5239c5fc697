import Foundation
import Testing

@testable import Magpie

/// What `scripts/with-moto.sh` set up: moto's S3 server on loopback, checking signatures and an
/// IAM policy (this key may read `magpie-photos` and nothing else), and the objects in it.
struct S3Fixture: Decodable {
    var endpoint: String
    var accessKeyID: String
    var secretAccessKey: String
    var bucket: String
    var versions: [String]
    var first: String
    var second: String

    static let loaded: S3Fixture? = {
        guard let path = ProcessInfo.processInfo.environment["MAGPIE_TEST_S3"],
            let data = FileManager.default.contents(atPath: path)
        else { return nil }
        return try? JSONDecoder().decode(S3Fixture.self, from: data)
    }()

    static let skipped = "no S3 server: run through scripts/with-moto.sh (scripts/test.sh does)"

    var credentials: AWSCredentials { AWSCredentials(accessKeyID: accessKeyID, secretAccessKey: secretAccessKey) }
    var endpointURL: URL { URL(string: endpoint)! }

    /// The bytes of a fixture file the objects were made from.
    func bytes(_ name: String) throws -> [UInt8] { try [UInt8](FormatFixtures.bytes(name)) }

    /// A downloader whose `s3` transport reads this server (the loopback is allowed, as it is by
    /// the standard address policy).
    func downloader(
        credentials: AWSCredentials? = nil, addressing: S3Configuration.Addressing? = nil,
        endpoint: URL? = nil, configure: (inout ImageDownloader.Config) -> Void = { _ in }
    ) -> ImageDownloader {
        var config = ImageDownloader.Config(failedURLTTL: nil)
        config.s3 = S3Configuration(
            endpoint: endpoint ?? endpointURL, addressing: addressing, credentials: credentials ?? self.credentials)
        configure(&config)
        return ImageDownloader(config: config)
    }
}

/// Answers every name with the loopback address (a virtual-hosted bucket's host name).
struct LoopbackResolver: HostResolver {
    func addresses(of host: String, port: Int) async throws -> [IPAddress] { [IPAddress("127.0.0.1")!] }
}

@Suite(.enabled(if: S3Fixture.loaded != nil, Comment(rawValue: S3Fixture.skipped)))
struct S3MotoTests {
    let s3 = S3Fixture.loaded!

    @Test func objectsAreReadSignedPathStyleWithTheirValidators() async throws {
        let d = s3.downloader()
        let r = try await d.download(URL(string: "s3://magpie-photos/albums/a%20cat%2B1.png")!)
        #expect(r.data == (try s3.bytes(s3.first)) && r.format == .png)
        #expect(r.url.absoluteString == "s3://magpie-photos/albums/a%20cat%2B1.png")
        let etag = try #require(r.validators.etag)
        #expect(r.validators.lastModified != nil)
        // The object's ETag revalidates it: a 304, no body.
        let again = try await d.download(
            URL(string: "s3://magpie-photos/albums/a%20cat%2B1.png")!,
            options: DownloadOptions(revalidating: ResponseValidators(etag: etag)))
        #expect(again.notModified && again.data.isEmpty)
        try await d.shutdown()
    }

    /// What a resumed download asks of S3, answered by moto: the rest of the object as a `206`
    /// the resume rules accept while its ETag stands, the whole object once it does not.
    @Test func aCutObjectIsContinuedByItsETag() async throws {
        let http = HTTPDataLoader()
        let loader = S3DataLoader(
            configuration: S3Configuration(endpoint: s3.endpointURL, credentials: s3.credentials), http: http)
        let url = URL(string: "s3://magpie-photos/big.bin")!
        let whole = try await loader.load(DataRequest(url: url)) { _, _ in }
        var cut = whole
        cut.body = Array(whole.body.prefix(1000))
        let kept = try #require(ResumableBody(cut, maxBodySize: 64 << 20), "S3's answer can be resumed")
        let part = try await loader.load(DataRequest(url: url, headers: kept.rangeFields)) { _, _ in }
        #expect(part.statusCode == 206 && part.body == Array(whole.body[1000...]))
        guard case .completed(let joined) = kept.continuation(with: part, maxBodySize: 64 << 20) else {
            Issue.record("S3's continuation was not joined: \(part.headers)")
            return
        }
        #expect(joined.body == whole.body)
        // Bytes of another version (another tag): S3 answers the whole object; moto ignores
        // If-Range and sends the range, whose own tag then keeps it from being joined.
        var stale = cut
        stale.headers.set("ETag", "\"0\"")
        let staleKept = try #require(ResumableBody(stale, maxBodySize: 64 << 20))
        let other = try await loader.load(DataRequest(url: url, headers: staleKept.rangeFields)) { _, _ in }
        switch staleKept.continuation(with: other, maxBodySize: 64 << 20) {
        case nil: #expect(other.statusCode == 200 && other.body == whole.body)
        case .inconsistent: #expect(other.statusCode == 206 && other.headers.value(for: "ETag") != "\"0\"")
        case .completed: Issue.record("another version's bytes were joined")
        }
        try await http.shutdown()
    }

    @Test func versionsAreReadByID() async throws {
        let d = s3.downloader()
        let latest = try await d.download(URL(string: "s3://magpie-photos/versioned.png")!)
        #expect(latest.data == (try s3.bytes(s3.second)))
        let old = try await d.download(URL(string: "s3://magpie-photos/versioned.png?versionId=\(s3.versions[0])")!)
        #expect(old.data == (try s3.bytes(s3.first)))
        // imgproxy's form: the whole query is the version.
        let bare = try await d.download(URL(string: "s3://magpie-photos/versioned.png?\(s3.versions[0])")!)
        #expect(bare.data == old.data)
        try await d.shutdown()
    }

    @Test func s3sRefusalsArePassedOnAsStatuses() async throws {
        let d = s3.downloader()
        // A missing key, a bucket the policy does not open, and a wrong secret.
        await #expect(throws: ImageDownloadError.badStatus(code: 404, retryAfter: nil)) {
            _ = try await d.download(URL(string: "s3://magpie-photos/missing.png")!)
        }
        await #expect(throws: ImageDownloadError.badStatus(code: 403, retryAfter: nil)) {
            _ = try await d.download(URL(string: "s3://magpie-private/secret.png")!)
        }
        let wrong = s3.downloader(credentials: AWSCredentials(accessKeyID: s3.accessKeyID, secretAccessKey: "wrong"))
        await #expect(throws: ImageDownloadError.badStatus(code: 403, retryAfter: nil)) {
            _ = try await wrong.download(URL(string: "s3://magpie-photos/versioned.png")!)
        }
        try await d.shutdown()
        try await wrong.shutdown()
    }

    @Test func theByteLimitAndTheAddressPolicyHold() async throws {
        let small = s3.downloader { $0.maxBodySize = 64 << 10 }
        await #expect(throws: ImageDownloadError.bodyTooLarge(limit: 64 << 10, declared: 1 << 20)) {
            _ = try await small.download(URL(string: "s3://magpie-photos/big.bin")!)
        }
        // The endpoint is an origin like any other: a public-only policy refuses the loopback.
        let strict = s3.downloader { $0.addressPolicy = .publicOnly }
        await #expect(throws: ImageDownloadError.addressDenied(host: "127.0.0.1", reason: "loopback")) {
            _ = try await strict.download(URL(string: "s3://magpie-photos/versioned.png")!)
        }
        try await small.shutdown()
        try await strict.shutdown()
    }

    @Test func virtualHostedAddressingNamesTheBucketInTheHost() async throws {
        // `magpie-photos.s3.test` resolves to the loopback through the injected resolver; moto
        // reads the bucket from the host's first label, as S3 does.
        let port = try #require(s3.endpointURL.port)
        let d = s3.downloader(addressing: .virtualHosted, endpoint: URL(string: "http://s3.test:\(port)")!) {
            $0.resolver = LoopbackResolver()
        }
        let r = try await d.download(URL(string: "s3://magpie-photos/versioned.png")!)
        #expect(r.data == (try s3.bytes(s3.second)))
        try await d.shutdown()
    }
}
