import Foundation
import Testing

@testable import Magpie

/// Signature Version 4 against AWS's published examples: the SigV4 test suite's `get-vanilla` and
/// `get-vanilla-query-order-key-case`, and the S3 documentation's signed GET Object (with a Range).
@Suite struct AWSSignatureV4Tests {
    static let suiteCredentials = AWSCredentials(
        accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")
    static let suiteDate = Date(timeIntervalSince1970: 1_440_938_160)  // 2015-08-30T12:36:00Z

    func authorization(_ headers: [(name: String, value: String)]) -> String? {
        headers.first { $0.name == "Authorization" }?.value
    }

    @Test func theTestSuitesVanillaRequestsSignAsPublished() throws {
        let signer = AWSSignatureV4(credentials: Self.suiteCredentials, region: "us-east-1", service: "service")
        let vanilla = signer.signedHeaders(
            method: "GET", url: try #require(URL(string: "https://example.amazonaws.com/")), date: Self.suiteDate)
        #expect(vanilla.first { $0.name == "x-amz-date" }?.value == "20150830T123600Z")
        #expect(
            authorization(vanilla)
                == "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
                + "SignedHeaders=host;x-amz-date, "
                + "Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31")
        // Parameters are signed sorted, whatever their order in the URL.
        let query = signer.signedHeaders(
            method: "GET", url: try #require(URL(string: "https://example.amazonaws.com/?Param2=value2&Param1=value1")),
            date: Self.suiteDate)
        #expect(
            authorization(query)?.hasSuffix(
                "Signature=b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500") == true)
    }

    @Test func s3sGetObjectExampleSignsAsDocumented() throws {
        let signer = AWSSignatureV4(
            credentials: AWSCredentials(
                accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
            region: "us-east-1")
        let headers = signer.signedHeaders(
            method: "GET", url: try #require(URL(string: "https://examplebucket.s3.amazonaws.com/test.txt")),
            headers: [("Range", "bytes=0-9")], date: Date(timeIntervalSince1970: 1_369_353_600))
        #expect(
            authorization(headers)
                == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
                + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
                + "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
        #expect(
            headers.first { $0.name == "x-amz-content-sha256" }?.value
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func temporaryCredentialsSignTheirToken() throws {
        var credentials = Self.suiteCredentials
        credentials.sessionToken = "token/with+odd=chars"
        let signer = AWSSignatureV4(credentials: credentials, region: "eu-west-1")
        let headers = signer.signedHeaders(
            method: "GET", url: try #require(URL(string: "http://127.0.0.1:9000/bucket/a%20b.jpg?versionId=3")),
            date: Self.suiteDate)
        #expect(headers.first { $0.name == "x-amz-security-token" }?.value == "token/with+odd=chars")
        #expect(
            authorization(headers)?.contains("SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token")
                == true)
        let (canonical, _) = signer.canonicalRequest(
            method: "GET", url: try #require(URL(string: "http://127.0.0.1:9000/bucket/a%20b.jpg?versionId=3")),
            headers: [("Host", "127.0.0.1:9000")], payloadHash: "x")
        #expect(canonical.hasPrefix("GET\n/bucket/a%20b.jpg\nversionId=3\nhost:127.0.0.1:9000\n"))
        #expect(AWSSignatureV4.host(try #require(URL(string: "https://s3.amazonaws.com:443/x"))) == "s3.amazonaws.com")
        #expect(AWSCredentials.fromEnvironment(["AWS_ACCESS_KEY_ID": "a"]) == nil)
        #expect(
            AWSCredentials.fromEnvironment([
                "AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "b", "AWS_SESSION_TOKEN": "",
            ])
                == AWSCredentials(accessKeyID: "a", secretAccessKey: "b"))
    }

    @Test func datesAndEncodingsAreCanonical() {
        for (seconds, stamp) in [
            (0, "19700101T000000Z"), (951_782_400, "20000229T000000Z"), (4_102_444_799, "20991231T235959Z"),
        ] {
            #expect(AWSSignatureV4.timestamps(Date(timeIntervalSince1970: Double(seconds))).1 == stamp)
        }
        #expect(AWSSignatureV4.encode(Array("a b/~é".utf8), keepingSlash: false) == "a%20b%2F~%C3%A9")
        #expect(AWSSignatureV4.canonicalQuery("b=2&a=%7e&a=1&c") == "a=1&a=~&b=2&c=")
        #expect(AWSSignatureV4.decoded("%zz%41%4") == Array("%zzA%4".utf8))
    }
}
