import Foundation
import Hummingbird
import Magpie
import MagpieHummingbird
import MagpieServer

/// An application with routes of its own that mounts Magpie's image service under `/img`: its
/// pages link thumbnails by signed imgproxy-style URLs, and the service answers them from the
/// same process.
public struct Gallery: Sendable {
    public let service: ImageService
    /// The key the page signs thumbnail URLs with (the service verifies them with it).
    public let key: ServiceConfiguration.SigningKey
    /// Where the pictures come from.
    public let photos: [URL]

    /// A gallery over `photos`, caching in `cacheFolder`; `allowNetwork` are the blocks sources
    /// may resolve to beyond the public internet (a test's loopback origin).
    public init(
        photos: [URL], cacheFolder: String, key: ServiceConfiguration.SigningKey, allowNetwork: [String] = []
    ) throws {
        var download = ImageDownloader.Config(timeout: .seconds(10), connectTimeout: .seconds(3))
        download.addressPolicy = try AddressPolicy.publicOnly.allowing(networks: allowNetwork)
        let manager = ImageManager(
            cache: try ImageCache(disk: DiskCache.Config(directory: cacheFolder)),
            downloader: ImageDownloader(config: download))
        var configuration = ServiceConfiguration()
        configuration.keys = [key]
        configuration.maxInFlight = 64
        service = ImageService(manager: manager, configuration: configuration)
        self.key = key
        self.photos = photos
    }

    /// The signed path of `photo` fitted inside `size`×`size`, under the `/img` mount.
    public func thumbnailPath(_ photo: URL, size: Int) -> String {
        let path = "/rs:fit:\(size):\(size)/plain/\(photo.absoluteString)"
        return "/img/" + URLSignature.sign(path, with: key) + path
    }

    /// The application's router: `/` (its own page) and the image service at `/img`.
    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/") { _, _ in
            let items = photos.map { "<img src=\"\(thumbnailPath($0, size: 200))\">" }.joined(separator: "\n")
            var headers = HTTPFields()
            headers[.contentType] = "text/html; charset=utf-8"
            let page = "<!doctype html><title>Gallery</title>\n\(items)\n"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: page)))
        }
        router.addImageService(service, at: "/img")
        return router
    }

    /// Stops the service's cache and downloader.
    public func shutdown() async throws {
        await service.manager.cache.shutdown()
        try await service.manager.downloader.shutdown()
    }
}
