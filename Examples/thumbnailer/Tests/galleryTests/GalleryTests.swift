import Foundation
import Gallery
import Hummingbird
import HummingbirdTesting
import Magpie
import MagpieLoopback
import Testing

/// The mounted service over real HTTP: the app's own page, its signed thumbnail URLs answered
/// under `/img`, and a forged one refused.
@Suite struct GalleryTests {
    @Test func thePageLinksThumbnailsTheMountedServiceServes() async throws {
        var pixels = [UInt8](repeating: 200, count: 300 * 200 * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) { pixels[i] = UInt8((i / 4) % 300 * 255 / 299) }
        let jpeg = try Image(width: 300, height: 200, rgba: pixels).encoded(as: .jpeg(quality: 85))
        let origin = try await LoopbackServer(host: "127.0.0.2") { request in
            request.path == "/photo.jpg" ? .ok(jpeg, contentType: "image/jpeg") : .respond(status: 404)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gallery-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let photo = URL(string: "http://127.0.0.2:\(origin.port)/photo.jpg")!
        let gallery = try Gallery(
            photos: [photo], cacheFolder: folder, key: .init(hexKey: "0a1b2c3d", hexSalt: "beef")!,
            allowNetwork: ["127.0.0.2/32"])
        let app = Application(router: gallery.router())
        try await app.test(.live) { client in
            let page = try await client.execute(uri: "/", method: .get)
            let html = String(buffer: page.body)
            let thumbnail = gallery.thumbnailPath(photo, size: 200)
            #expect(page.status == .ok && html.contains(thumbnail))
            let image = try await client.execute(uri: thumbnail, method: .get)
            #expect(image.status == .ok && image.headers[.contentType] == "image/jpeg")
            let decoded = try Image(decoding: Array(buffer: image.body))
            #expect(decoded.width == 200 && decoded.height == 133)
            let forged = thumbnail.replacingOccurrences(of: ":200:200", with: ":400:400")
            #expect(try await client.execute(uri: forged, method: .get).status == .forbidden)
            #expect(try await client.execute(uri: "/img/health", method: .get).status == .ok)
        }
        #expect(origin.requestCount("/photo.jpg") == 1)
        try await gallery.shutdown()
        try await origin.shutdown()
    }
}
