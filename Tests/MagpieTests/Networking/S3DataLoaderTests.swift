import Foundation
import Synchronization
import Testing

@testable import Magpie

/// `s3://` URLs: what they name, where the request goes and what it carries, without a server
/// (S3MotoTests sends them to a real S3 API).
@Suite struct S3DataLoaderTests {
    /// Records the request it is given and answers what it is told.
    final class Recorder: DataLoading, Sendable {
        let seen = Mutex<[DataRequest]>([])
        let answer: DataResponse
        init(_ answer: DataResponse = DataResponse(url: URL(string: "http://x")!, statusCode: 200, body: [1])) {
            self.answer = answer
        }
        func load(_ request: DataRequest, progress: @escaping @Sendable (Int, Int?) -> Void) async throws
            -> DataResponse
        {
            seen.withLock { $0.append(request) }
            var r = answer
            r.url = request.url
            return r
        }
        var last: DataRequest? { seen.withLock { $0.last } }
    }

    static let key = AWSCredentials(
        accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")
    static let fixed = Date(timeIntervalSince1970: 1_440_938_160)  // 2015-08-30T12:36:00Z

    @Test func urlsNameABucketAKeyAndAtMostAVersion() throws {
        func object(_ text: String) -> S3DataLoader.Object? { S3DataLoader.object(URL(string: text)!) }
        #expect(object("s3://photos/a/b%20c.jpg") == .init(bucket: "photos", key: Array("a/b c.jpg".utf8)))
        #expect(object("s3://photos/a.jpg?versionId=3%2F4")?.versionID == "3/4")
        #expect(object("s3://photos/a.jpg?L4kqtJlcpXroDTDmpUMLUo")?.versionID == "L4kqtJlcpXroDTDmpUMLUo")
        for bad in [
            "s3://photos/", "s3://photos", "s3:///a.jpg", "s3://u:p@photos/a.jpg", "s3://photos:9000/a.jpg",
            "s3://photos/a/../b.jpg", "s3://photos/%2e%2e/b.jpg", "s3://photos/./b.jpg", "s3://photos/a%00.jpg",
            "s3://photos/a.jpg?versionId=1&x=2", "s3://photos/a.jpg?x=2", "s3://photos/a.jpg#f",
            "s3://photos/" + String(repeating: "k", count: 1025), "s3://photos/%ff.jpg",
        ] {
            #expect(object(bad) == nil, "\(bad)")
        }
    }

    @Test func bucketsAreAddressedByPathOrByHostAsConfigured() throws {
        let key = Array("a b/c+d.jpg".utf8)
        let aws = S3Configuration(region: "eu-west-1")
        #expect(aws.addressing == .virtualHosted)
        #expect(
            aws.objectURL(bucket: "photos", key: key, versionID: nil)?.absoluteString
                == "https://photos.s3.eu-west-1.amazonaws.com/a%20b/c%2Bd.jpg")
        // A dotted bucket over https would not match AWS's certificate: path-style.
        #expect(
            aws.objectURL(bucket: "my.photos", key: key, versionID: "v/1")?.absoluteString
                == "https://s3.eu-west-1.amazonaws.com/my.photos/a%20b/c%2Bd.jpg?versionId=v%2F1")
        let minio = S3Configuration(endpoint: URL(string: "http://127.0.0.1:9000/store/")!)
        #expect(minio.addressing == .path)
        #expect(
            minio.objectURL(bucket: "photos", key: key, versionID: nil)?.absoluteString
                == "http://127.0.0.1:9000/store/photos/a%20b/c%2Bd.jpg")
        // An address literal has no subdomains, whatever is asked.
        let literal = S3Configuration(endpoint: URL(string: "http://127.0.0.1:9000")!, addressing: .virtualHosted)
        #expect(literal.objectURL(bucket: "photos", key: key, versionID: nil)?.host == "127.0.0.1")
        let named = S3Configuration(endpoint: URL(string: "http://s3.test:9000")!, addressing: .virtualHosted)
        #expect(
            named.objectURL(bucket: "photos", key: key, versionID: nil)?.absoluteString
                == "http://photos.s3.test:9000/a%20b/c%2Bd.jpg")
        #expect(aws.isValidBucket("photos-2.eu") && minio.isValidBucket("Legacy_Bucket"))
        for bad in ["ab", String(repeating: "a", count: 64), "-photos", "photos-", "a..b", "Photos", "pho_tos"] {
            #expect(!aws.isValidBucket(bad), "\(bad)")
        }
        #expect(!S3Configuration.isValidEndpoint(URL(string: "ftp://s3.test")!))
        #expect(!S3Configuration.isValidEndpoint(URL(string: "http://u:p@s3.test")!))
        #expect(S3Configuration.isValidEndpoint(URL(string: "https://s3.test:9000")!))
    }

    @Test func requestsAreSignedAndCarryTheConditionalFieldsButNoCallersCredentials() async throws {
        let http = Recorder()
        let s3 = S3Configuration(endpoint: URL(string: "http://127.0.0.1:9000")!, credentials: Self.key)
        let loader = S3DataLoader(configuration: s3, http: http, now: { Self.fixed })
        let request = DataRequest(
            url: URL(string: "s3://photos/a%20b.jpg?versionId=7")!,
            headers: [
                HTTPHeaderField("If-None-Match", "\"abc\""), HTTPHeaderField("Authorization", "Bearer stolen"),
                HTTPHeaderField("X-Amz-Security-Token", "forged"),
            ])
        let response = try await loader.load(request) { _, _ in }
        #expect(response.url == request.url && response.body == [1])
        let sent = try #require(http.last)
        #expect(sent.url.absoluteString == "http://127.0.0.1:9000/photos/a%20b.jpg?versionId=7")
        #expect(sent.headers.value(for: "If-None-Match") == "\"abc\"")
        #expect(sent.headers.value(for: "X-Amz-Security-Token") == nil)
        #expect(sent.headers.value(for: "x-amz-date") == "20150830T123600Z")
        #expect(sent.headers.value(for: "x-amz-content-sha256") == AWSSignatureV4.emptyPayloadHash)
        let auth = try #require(sent.headers.value(for: "Authorization"))
        #expect(sent.headers.filter { HTTPHeaderField.namesMatch($0.name, "Authorization") }.count == 1)
        #expect(auth.hasPrefix("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/s3/aws4_request, "))
        #expect(auth.contains("SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature="))
        // The signature is the signer's for that URL and time.
        let expected = AWSSignatureV4(credentials: Self.key, region: "us-east-1")
            .signedHeaders(method: "GET", url: sent.url, date: Self.fixed).first { $0.name == "Authorization" }?.value
        #expect(auth == expected)
        // Without credentials nothing is signed (a public bucket).
        let anonymous = S3DataLoader(configuration: S3Configuration(), http: http)
        _ = try await anonymous.load(DataRequest(url: URL(string: "s3://photos/a.jpg")!)) { _, _ in }
        #expect(http.last?.headers.value(for: "Authorization") == nil)
        #expect(http.last?.url.absoluteString == "https://photos.s3.us-east-1.amazonaws.com/a.jpg")
        await #expect(throws: ImageDownloadError.invalidURL("s3://Bad_Bucket/a.jpg")) {
            _ = try await anonymous.load(DataRequest(url: URL(string: "s3://Bad_Bucket/a.jpg")!)) { _, _ in }
        }
    }

    @Test func aSignerKeepsItsDaysKeyAndDerivesTheNextDays() {
        // The derived key is kept for its day: a signer used across midnight signs as new ones do.
        let url = URL(string: "http://127.0.0.1:9000/photos/a.jpg")!
        let reused = AWSSignatureV4(credentials: Self.key, region: "us-east-1")
        for date in [Self.fixed, Self.fixed.addingTimeInterval(60), Self.fixed.addingTimeInterval(86_400), Self.fixed] {
            let fresh = AWSSignatureV4(credentials: Self.key, region: "us-east-1")
            let a = reused.signedHeaders(method: "GET", url: url, date: date).map { "\($0.name)=\($0.value)" }
            let b = fresh.signedHeaders(method: "GET", url: url, date: date).map { "\($0.name)=\($0.value)" }
            #expect(a == b)
        }
        #expect(
            reused.signingKey(day: "20150831")
                == AWSSignatureV4.derivedKey(
                    secret: Self.key.secretAccessKey, day: "20150831", region: "us-east-1", service: "s3"))
    }

    @Test func aRedirectIsNotFollowedAnywhere() async throws {
        // S3 answers 301 for a bucket in another region: the downloader must not take a signed
        // request (or any request) to the Location it names.
        let redirect = DataResponse(
            url: URL(string: "http://x")!, statusCode: 301, headers: [HTTPHeaderField("Location", "http://127.0.0.2/")])
        let http = Recorder(redirect)
        var config = ImageDownloader.Config(requiresImageBody: false, failedURLTTL: nil)
        config.s3 = S3Configuration(endpoint: URL(string: "http://127.0.0.1:9000")!, credentials: Self.key)
        let downloader = ImageDownloader(config: config, transports: ["http": http, "https": http])
        await #expect(throws: ImageDownloadError.badStatus(code: 301, retryAfter: nil)) {
            _ = try await downloader.download(URL(string: "s3://photos/a.jpg")!)
        }
        #expect(http.seen.withLock { $0.count } == 1)
        try await downloader.shutdown()
    }
}
