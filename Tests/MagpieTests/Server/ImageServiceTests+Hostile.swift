import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie
@testable import MagpieServer

/// A hostile origin, through the service: every trick is a fixed, uncacheable error status, and
/// the service is still healthy afterwards.
extension ImageServiceTests {
    static func hostile(_ inside: Int) -> LoopbackServer.Handler {
        { request in
            let jpeg = NetFixture.jpeg
            switch request.path {
            case "/short":
                return .truncated(
                    status: 200, headers: [("Content-Type", "image/jpeg")], body: jpeg, declaredLength: jpeg.count * 2)
            case "/endless":
                // Chunked, no length, each chunk a valid-looking JPEG start: cut off past the limit.
                return .slow(
                    status: 200, headers: [("Content-Type", "image/jpeg")],
                    chunks: Array(repeating: Array(jpeg.prefix(4096)), count: 64), interval: .zero, contentLength: nil)
            case "/gzip-bomb":
                // 16 MiB of zeros in 16 KiB: inflated only up to the body limit.
                return .respond(
                    status: 200, headers: [("Content-Type", "image/jpeg"), ("Content-Encoding", "gzip")],
                    body: (try? DownloaderTests.encoded("zeros-16MiB.gz")) ?? [])
            case "/bomb.png": return .ok(Gzip.pngHeader(width: 60_000, height: 60_000), contentType: "image/png")
            case "/corrupt.jpg":
                return .ok(Array(jpeg.prefix(2)) + Array(repeating: 0x5A, count: 500), contentType: "image/jpeg")
            case "/loop": return .respond(status: 302, headers: [("Location", "/loop2")])
            case "/loop2": return .respond(status: 302, headers: [("Location", "/loop")])
            case let p where p.hasPrefix("/chain"):
                let n = Int(p.dropFirst(6)) ?? 0
                return .respond(status: 302, headers: [("Location", "/chain\(n + 1)")])
            case "/to-file": return .respond(status: 302, headers: [("Location", "file:///etc/passwd")])
            case "/inside": return .respond(status: 302, headers: [("Location", "http://127.0.0.1:\(inside)/a.jpg")])
            case "/drop": return .close
            default: return .respond(status: 404)
            }
        }
    }

    @Test func aHostileOriginGetsFixedErrorsAndTheServiceStaysHealthy() async throws {
        // The bomb's header is valid: it is refused for its size, not for being malformed.
        let bomb = try ImageInfo(probing: Gzip.pngHeader(width: 60_000, height: 60_000))
        #expect(bomb.width == 60_000 && bomb.height == 60_000)
        let inside = try await LoopbackServer(host: "127.0.0.1", handler: Self.images)
        let h = try await Self.harness(Self.hostile(inside.port), download: { $0.maxBodySize = 64 << 10 })
        let expected: [(String, Int)] = [
            ("/short", 502), ("/endless", 422), ("/gzip-bomb", 422), ("/bomb.png", 422), ("/corrupt.jpg", 422),
            ("/loop", 502), ("/chain0", 502), ("/to-file", 502), ("/inside", 403), ("/drop", 502),
        ]
        for (path, status) in expected {
            let r = await h.get(h.target("w:10", path))
            #expect(r.status == status, "\(path): \(r.status) \(String(decoding: r.body, as: UTF8.self))")
            #expect(r.header("Cache-Control") == "no-store" && r.header("ETag") == nil, "\(path)")
        }
        #expect(inside.connectionsAccepted == 0, "the redirect inside was refused before connecting")
        #expect(h.service.manager.statistics.processed == 0, "nothing hostile was decoded past its header")
        #expect(await h.get("/health").status == 200)
        try await inside.shutdown()
        try await h.finish()
    }
}

/// Hand-made compressed fixtures.
enum Gzip {
    /// `bytes` as a gzip member of stored (uncompressed) deflate blocks, made without zlib:
    /// inflating it gives `bytes` back.
    static func stored(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 255]
        var rest = bytes[...]
        repeat {
            let block = rest.prefix(65535)
            rest = rest.dropFirst(block.count)
            let n = UInt16(block.count)
            out += [rest.isEmpty ? 1 : 0, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8(~n >> 8)] + block
        } while !rest.isEmpty
        return out + le32(crc32(bytes)) + le32(UInt32(truncatingIfNeeded: bytes.count))
    }

    /// A PNG signature and a valid IHDR chunk declaring `width`×`height` RGBA, and nothing more.
    static func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
        let ihdr = Array("IHDR".utf8) + be32(width) + be32(height) + [8, 6, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be32(13) + ihdr + be32(crc32(ihdr))
    }

    /// CRC-32 (ISO 3309, as gzip and PNG use it), bit by bit.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
    static func be32(_ v: UInt32) -> [UInt8] { le32(v).reversed() }
}
