import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie

/// Origins that send an image `gzip`- or `deflate`-encoded (S3 objects uploaded with that header):
/// the body is inflated as it streams and the inflated bytes are what the limits count. The
/// encoded files are in `Tests/fixtures/encodings` (its `make.sh`).
extension DownloaderTests {
    static func encoded(_ name: String) throws -> [UInt8] {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("fixtures/encodings")
        return try [UInt8](Data(contentsOf: dir.appendingPathComponent(name)))
    }

    @Test func encodedBodiesAreInflatedAndBounded() async throws {
        let png = try [UInt8](FormatFixtures.bytes("bmp-rgb24.ref.png"))
        let gz = try Self.encoded("png.gz"), zlib = try Self.encoded("png.zlib"),
            bomb = try Self.encoded("zeros-16MiB.gz")
        var corrupt = gz
        corrupt[gz.count / 2] ^= 0xFF
        let cut = Array(gz.prefix(gz.count - 20))
        let bodies: [String: (String, [UInt8])] = [
            "/gz": ("gzip", gz), "/zlib": ("deflate", zlib), "/bomb": ("gzip", bomb), "/corrupt": ("gzip", corrupt),
            "/cut": ("gzip", cut), "/stored": ("gzip", Gzip.stored(png)),
        ]
        let asked = Locked<[String]>([])
        try await withServer({ request in
            asked.withLock { $0.append(request.header("Accept-Encoding") ?? "") }
            guard let (encoding, body) = bodies[request.uri] else { return .respond(status: 404) }
            return .respond(
                status: 200, headers: [("Content-Type", "image/png"), ("Content-Encoding", encoding)], body: body)
        }) { origin in
            var config = ImageDownloader.Config(maxBodySize: 1 << 20)
            config.retryStrategy = .none
            let downloader = ImageDownloader(config: config)
            for path in ["/gz", "/zlib", "/stored"] {
                let result = try await downloader.download(URL(string: origin.baseURL + path)!)
                #expect(result.data == png && result.format == .png, "\(path): the inflated PNG")
            }
            await #expect(throws: ImageDownloadError.bodyTooLarge(limit: 1 << 20, declared: nil)) {
                _ = try await downloader.download(URL(string: origin.baseURL + "/bomb")!)
            }
            for path in ["/corrupt", "/cut"] {
                do {
                    _ = try await downloader.download(URL(string: origin.baseURL + path)!)
                    Issue.record("\(path): a damaged stream was accepted")
                } catch let error as ImageDownloadError {
                    switch error {
                    case .undecodable, .connectionFailed: break
                    default: Issue.record("\(path): \(error)")
                    }
                }
            }
            try await downloader.shutdown()
        }
        #expect(asked.withLock { $0.allSatisfy { $0.contains("gzip") } }, "the requests say gzip is understood")
    }
}
