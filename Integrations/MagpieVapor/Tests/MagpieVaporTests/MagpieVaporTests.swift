import Foundation
import Magpie
import MagpieLoopback
import MagpieServer
import MagpieVapor
import Testing
import VaporTesting

/// The service mounted on a Vapor application, over live HTTP on loopback: the raw path reaches it
/// (the `//` of a plain source intact), GET and HEAD answer, a forged signature is refused, the
/// application's own routes stay its own, and a request body is never collected.
@Suite struct MagpieVaporTests {
    static let key = ServiceConfiguration.SigningKey(hexKey: "0a1b2c3d", hexSalt: "beef")!

    static func service(cache folder: String) throws -> ImageService {
        var download = ImageDownloader.Config(timeout: .seconds(10), connectTimeout: .seconds(3))
        download.addressPolicy = try AddressPolicy.publicOnly.allowing(networks: ["127.0.0.2/32"])
        let manager = ImageManager(
            cache: try ImageCache(disk: DiskCache.Config(directory: folder)),
            downloader: ImageDownloader(config: download))
        var configuration = ServiceConfiguration()
        configuration.keys = [key]
        return ImageService(manager: manager, configuration: configuration)
    }

    static func signed(_ path: String) -> String { "/img/" + URLSignature.sign(path, with: key) + path }

    @Test func theMountedServiceAnswersOverLiveHTTP() async throws {
        var pixels = [UInt8](repeating: 90, count: 120 * 80 * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) { pixels[i] = UInt8((i / 4) % 120 * 2) }
        let png = try Image(width: 120, height: 80, rgba: pixels).encoded(as: .png())
        let origin = try await LoopbackServer(host: "127.0.0.2") { request in
            request.path == "/a.png" ? .ok(png, contentType: "image/png") : .respond(status: 404)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("magpie-vapor-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let service = try Self.service(cache: folder)
        let thumbnail = Self.signed("/rs:fit:30:30/plain/http://127.0.0.2:\(origin.port)/a.png@png")
        try await withApp { app in
            app.get("hello") { _ in "the app's own route" }
            try app.images.mount(service, at: "/img")
            let live = try app.testing(method: .running(hostname: "127.0.0.1", port: 0))
            try await live.test(.GET, thumbnail) { response in
                #expect(response.status == .ok && response.headers.contentType?.description == "image/png")
                let image = try Image(decoding: Array(response.body.readableBytesView))
                #expect(image.width == 30 && image.height == 20)
            }
            try await live.test(.HEAD, thumbnail) { response in
                #expect(response.status == .ok && response.body.readableBytes == 0)
                #expect(Int(response.headers.first(name: .contentLength) ?? "") ?? 0 > 0)
            }
            // A body on a GET is left unread (never collected into memory), and the answer comes.
            let body = ByteBuffer(repeating: 0x41, count: 4 << 20)
            try await live.test(.GET, thumbnail, body: body) { response in #expect(response.status == .ok) }
            let forged = thumbnail.replacingOccurrences(of: ":30:30", with: ":60:60")
            try await live.test(.GET, forged) { response in #expect(response.status == .forbidden) }
            try await live.test(.GET, "/img/health") { response in #expect(response.status == .ok) }
            try await live.test(.GET, "/hello") { response in
                #expect(response.body.string == "the app's own route")
            }
            try await live.test(.GET, "/elsewhere") { response in #expect(response.status == .notFound) }
        }
        #expect(origin.requestCount("/a.png") == 1)
        try await origin.shutdown()
    }
}
