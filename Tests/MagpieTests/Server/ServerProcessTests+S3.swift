import Foundation
import MagpieTestSupport
import Testing

@testable import Magpie
@testable import MagpieServer

/// `magpie-server` reading S3 as imgproxy's variables configure it, from moto's server on loopback.
extension ServerProcessTests {
    @Test(.enabled(if: S3Fixture.loaded != nil, Comment(rawValue: S3Fixture.skipped)))
    func s3SourcesAsImgproxysVariablesConfigureThem() async throws {
        let s3 = try #require(S3Fixture.loaded)
        let dir = try TemporaryDirectory()
        let child = try ChildProcess(
            Self.binary, ["--bind", "127.0.0.1:0", "--cache-dir", dir.path("cache"), "--allow-unsigned"],
            environment: [
                "IMGPROXY_USE_S3": "true", "IMGPROXY_S3_ENDPOINT": s3.endpoint, "IMGPROXY_S3_REGION": "us-east-1",
                "AWS_ACCESS_KEY_ID": s3.accessKeyID, "AWS_SECRET_ACCESS_KEY": s3.secretAccessKey,
                "IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES": "true",
            ])
        defer { child.killHard() }
        let line = try #require(child.readLine())
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0) }, "\(line)")
        let loader = HTTPDataLoader(addressPolicy: .allowAll)
        func get(_ source: String) async throws -> DataResponse {
            try await loader.load(
                DataRequest(
                    url: URL(string: "http://127.0.0.1:\(port)/insecure/rs:fit:8:8/plain/\(source)@png")!,
                    acceptableStatusCodes: 0..<600), progress: { _, _ in })
        }
        let ok = try await get("s3://magpie-photos/versioned.png")
        #expect(ok.statusCode == 200 && ok.headers.value(for: "Content-Type") == "image/png")
        #expect(try Image(decoding: ok.body).width <= 8)
        #expect(try await get("s3://magpie-private/secret.png").statusCode == 403)
        try await loader.shutdown()
    }

    @Test func s3SettingsWithoutS3StopTheStart() throws {
        let dir = try TemporaryDirectory()
        for arguments in [["--s3-endpoint", "http://127.0.0.1:9000"], ["--s3", "--s3-endpoint", "ftp://x"]] {
            let errors = Pipe()
            let child = try ChildProcess(
                Self.binary, ["--allow-unsigned", "--cache-dir", dir.path("cache")] + arguments,
                standardError: errors.fileHandleForWriting)
            #expect(child.readLine() == nil, "\(arguments): the server never listens")
            child.process.waitUntilExit()
            try errors.fileHandleForWriting.close()
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(child.process.terminationStatus != 0 && text.contains("--s3"), "\(arguments): \(text)")
        }
    }
}
