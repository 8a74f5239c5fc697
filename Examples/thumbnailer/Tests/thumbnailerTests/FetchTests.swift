import Foundation
import Magpie
import MagpieLoopback
import Testing

/// What an application's own test looks like: a scripted origin on 127.0.0.1, a cache in a
/// temporary folder, and the real pipeline between them.
@Suite struct FetchTests {
    @Test func aThumbnailIsFetchedOnceAndThenServedFromTheCache() async throws {
        var pixels = [UInt8](repeating: 255, count: 300 * 200 * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) { pixels[i] = UInt8((i / 4) % 300 * 255 / 299) }
        let jpeg = try Image(width: 300, height: 200, rgba: pixels).encoded(as: .jpeg(quality: 85))
        let webp = try Image(width: 300, height: 200, rgba: pixels).encoded(as: .webp())
        let server = try await LoopbackServer { request in
            switch request.path {
            case "/photo.jpg": return .ok(jpeg, contentType: "image/jpeg")
            case "/photo.webp": return .ok(webp, contentType: "image/webp")
            default: return .respond(status: 404)
            }
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("thumbnailer-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let manager = ImageManager(cache: try ImageCache(disk: DiskCache.Config(directory: folder)))
        let url = URL(string: server.baseURL + "/photo.jpg")!
        let first = try await manager.image(from: url) { make in make.size.lessThanOrEqualTo(64) }
        let second = try await manager.image(from: url) { make in make.size.lessThanOrEqualTo(64) }
        #expect(first.width == 64 && first.height == 43 && second == first)
        #expect(server.requestCount("/photo.jpg") == 1)
        let webpURL = URL(string: server.baseURL + "/photo.webp")!
        let fromWebP = try await manager.image(from: webpURL) { make in make.size.lessThanOrEqualTo(64) }
        #expect(fromWebP.width == 64 && fromWebP.height == 43 && fromWebP.sourceFormat == .webp)
        await #expect(throws: ImageRetrieveError.loadingFailed(.badStatus(code: 404, retryAfter: nil))) {
            _ = try await manager.image(from: URL(string: server.baseURL + "/missing.jpg")!)
        }
        await manager.cache.shutdown()
        try await manager.downloader.shutdown()
        try await server.shutdown()
    }
}
