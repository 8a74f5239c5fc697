import ArgumentParser
import Magpie
import MagpieServer

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The fallback image (imgproxy's `IMGPROXY_FALLBACK_IMAGE_PATH`, `_URL`, `_DATA`, `_HTTP_CODE`,
/// `_TTL`), read at start by ``ConfiguredImage``.
struct FallbackOptions: ParsableArguments {
    @Option(name: .long, help: "An image file served, processed as asked, when a source cannot be had.")
    var fallbackImagePath: String?
    @Option(name: .long, help: "The fallback image as a URL, fetched at start as a source is.")
    var fallbackImageURL: String?
    @Option(name: .long, help: "The fallback image as base64 text.")
    var fallbackImageData: String?
    @Option(name: .long, help: "The status of a fallback answer (0: the failure's own).")
    var fallbackImageHTTPCode = 200
    @Option(name: .long, help: "At most this Cache-Control max-age for a fallback answer (0: the usual).")
    var fallbackImageTTL = 0

    /// The fallback, read and checked (`nil` when none is given).
    func load(manager: ImageManager, maxBytes: Int) async throws -> FallbackImage? {
        guard fallbackImageHTTPCode == 0 || (100...599).contains(fallbackImageHTTPCode) else {
            throw ValidationError("--fallback-image-http-code must be 0 or 100–599")
        }
        guard fallbackImageTTL >= 0 else { throw ValidationError("--fallback-image-ttl cannot be negative") }
        guard
            let bytes = try await ConfiguredImage.load(
                path: fallbackImagePath, url: fallbackImageURL, data: fallbackImageData, flag: "--fallback-image",
                manager: manager, maxBytes: maxBytes)
        else { return nil }
        return FallbackImage(bytes: bytes, status: fallbackImageHTTPCode, ttl: fallbackImageTTL)
    }
}
