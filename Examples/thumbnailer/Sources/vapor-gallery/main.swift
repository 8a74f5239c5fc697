import Foundation
import Magpie
import MagpieServer
import MagpieVapor
import Vapor

// Magpie's image service mounted in a Vapor application beside a page of its own:
// `vapor-gallery serve --hostname 127.0.0.1 --port 8080` (Vapor's own commands). The photos are
// GALLERY_PHOTOS (URLs separated by spaces); the signing key GALLERY_KEY and GALLERY_SALT (hex).
let environment = ProcessInfo.processInfo.environment
guard
    let key = ServiceConfiguration.SigningKey(
        hexKey: environment["GALLERY_KEY"] ?? "", hexSalt: environment["GALLERY_SALT"] ?? "")
else {
    print("vapor-gallery: set GALLERY_KEY and GALLERY_SALT (hex)")
    exit(2)
}
let photos = (environment["GALLERY_PHOTOS"] ?? "").split(separator: " ").compactMap { URL(string: String($0)) }

let manager = ImageManager(
    cache: try ImageCache(
        disk: DiskCache.Config(
            directory: FileManager.default.temporaryDirectory.appendingPathComponent("vapor-gallery-cache").path)),
    downloader: ImageDownloader(config: .init(timeout: .seconds(10))))
var configuration = ServiceConfiguration()
configuration.keys = [key]
configuration.maxInFlight = 64
let service = ImageService(manager: manager, configuration: configuration)

let app = try await Application.make(try Environment.detect())
app.get { _ -> Response in
    let items = photos.map { photo -> String in
        let path = "/rs:fit:200:200/plain/\(photo.absoluteString)"
        return "<img src=\"/img/\(URLSignature.sign(path, with: key))\(path)\">"
    }
    let page = "<!doctype html><title>Gallery</title>\n\(items.joined(separator: "\n"))\n"
    return Response(status: .ok, headers: ["Content-Type": "text/html; charset=utf-8"], body: .init(string: page))
}
try app.images.mount(service, at: "/img")
do {
    try await app.execute()
} catch {
    try? await app.asyncShutdown()
    throw error
}
try await app.asyncShutdown()
