import Foundation
import MagpieTestSupport
import Testing

@testable import Magpie

/// `magpie fetch` of `local://` URLs beneath `--local-root` and of `s3://` objects.
extension CLITests {
    @Test func fetchReadsLocalURLsOnlyBeneathTheRoot() throws {
        let dir = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.path("root"), withIntermediateDirectories: true)
        try Data(NetFixture.png).write(to: URL(fileURLWithPath: dir.path("root/a.png")))
        try Data(NetFixture.png).write(to: URL(fileURLWithPath: dir.path("outside.png")))
        let base = ["fetch", "--cache-dir", dir.path("cache"), "--json"]
        let ok = try CLI.run(base + ["--local-root", dir.path("root"), "local:///a.png"])
        #expect(ok.status == 0 && ok.stdout.contains("\"width\":"), "\(ok.stdout)\(ok.stderr)")
        let out = try CLI.run(base + ["--local-root", dir.path("root"), "local:///../outside.png"])
        #expect(out.status != 0 && (out.stdout + out.stderr).contains("404"), "\(out.stdout)\(out.stderr)")
        let none = try CLI.run(["fetch", "--cache-dir", dir.path("cache2"), "--json", "local:///a.png"])
        #expect(none.status != 0 && (none.stdout + none.stderr).contains("no transport for scheme"), "\(none.stdout)")
        let notAFolder = try CLI.run(base + ["--local-root", dir.path("root/a.png"), "local:///a.png"])
        #expect(notAFolder.status != 0 && notAFolder.stderr.contains("--local-root"), "\(notAFolder.stderr)")
    }

    @Test(.enabled(if: S3Fixture.loaded != nil, Comment(rawValue: S3Fixture.skipped)))
    func fetchReadsS3ObjectsSignedWithTheEnvironmentsKey() throws {
        let s3 = try #require(S3Fixture.loaded)
        let dir = try TemporaryDirectory()
        // The key comes from the environment, as the AWS tools take it.
        let script = "k=$1; s=$2; shift 2; AWS_ACCESS_KEY_ID=$k AWS_SECRET_ACCESS_KEY=$s exec \"$0\" \"$@\""
        func fetch(_ secret: String, _ url: String) throws -> CLI.Result {
            try CLI.runShell(
                script,
                [
                    s3.accessKeyID, secret, "fetch", url, "--cache-dir", dir.path("cache"), "--s3-endpoint",
                    s3.endpoint,
                    "--out", dir.path("out"), "--retries", "0",
                ])
        }
        let ok = try fetch(s3.secretAccessKey, "s3://magpie-photos/albums/a%20cat%2B1.png")
        #expect(ok.status == 0, "\(ok.stdout)\(ok.stderr)")
        let written = try FileManager.default.contentsOfDirectory(atPath: dir.path("out"))
        #expect(written.count == 1)
        let image = try Image(decoding: [UInt8](Data(contentsOf: URL(fileURLWithPath: dir.path("out/" + written[0])))))
        #expect(try image.width == Image(decoding: s3.bytes(s3.first)).width)
        let wrong = try fetch("not-the-secret", "s3://magpie-photos/versioned.png")
        #expect(wrong.status != 0 && (wrong.stdout + wrong.stderr).contains("403"), "\(wrong.stdout)")
    }
}
