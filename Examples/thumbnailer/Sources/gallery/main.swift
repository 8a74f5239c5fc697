import Foundation
import Gallery
import Hummingbird
import MagpieServer

// A gallery page with thumbnails from Magpie's image service, mounted in the same Hummingbird
// application: `gallery PORT PHOTO-URL…` (the key comes from GALLERY_KEY and GALLERY_SALT, hex).
let arguments = CommandLine.arguments
guard arguments.count >= 3, let port = Int(arguments[1]) else {
    print("usage: gallery PORT PHOTO-URL…")
    exit(2)
}
let environment = ProcessInfo.processInfo.environment
guard
    let key = ServiceConfiguration.SigningKey(
        hexKey: environment["GALLERY_KEY"] ?? "", hexSalt: environment["GALLERY_SALT"] ?? "")
else {
    print("gallery: set GALLERY_KEY and GALLERY_SALT (hex)")
    exit(2)
}
let gallery = try Gallery(
    photos: arguments.dropFirst(2).compactMap(URL.init(string:)),
    cacheFolder: FileManager.default.temporaryDirectory.appendingPathComponent("gallery-cache").path, key: key)
let app = Application(router: gallery.router(), configuration: .init(address: .hostname("127.0.0.1", port: port)))
try await app.runService()
try await gallery.shutdown()
