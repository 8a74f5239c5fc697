import ArgumentParser
import Magpie
import MagpieServer

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The fallback image (imgproxy's `IMGPROXY_FALLBACK_IMAGE_PATH`, `_URL`, `_DATA`, `_HTTP_CODE`,
/// `_TTL`): read at start, from a file, base64 text or a URL fetched through the manager (so the
/// address policy and the source limits judge it as any source), and checked to be an image.
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
        let given = [fallbackImagePath, fallbackImageURL, fallbackImageData].compactMap { $0 }
        guard !given.isEmpty else { return nil }
        guard given.count == 1 else { throw ValidationError("give one of the --fallback-image-path, -url and -data") }
        guard fallbackImageHTTPCode == 0 || (100...599).contains(fallbackImageHTTPCode) else {
            throw ValidationError("--fallback-image-http-code must be 0 or 100–599")
        }
        guard fallbackImageTTL >= 0 else { throw ValidationError("--fallback-image-ttl cannot be negative") }
        let bytes: [UInt8]
        if let path = fallbackImagePath {
            guard let data = FileManager.default.contents(atPath: path), data.count <= maxBytes else {
                throw ValidationError("--fallback-image-path \(path): cannot be read, or larger than --max-src-bytes")
            }
            bytes = Array(data)
        } else if let text = fallbackImageData {
            guard text.utf8.count <= maxBytes / 3 * 4 + 4, let data = Data(base64Encoded: text) else {
                throw ValidationError("--fallback-image-data: not base64, or larger than --max-src-bytes")
            }
            bytes = Array(data)
        } else {
            guard let text = fallbackImageURL, let url = URL(string: text), url.scheme != nil else {
                throw ValidationError("--fallback-image-url: not a URL")
            }
            var options = manager.defaultOptions
            options.cache.memory.expiration = .expired
            do {
                bytes = try await manager.retrieveData(with: .network(url), options: options).data
            } catch {
                throw ValidationError("--fallback-image-url \(text): \(error)")
            }
        }
        guard (try? ImageInfo(probing: bytes)) != nil else {
            throw ValidationError("the fallback image is not an image this server reads")
        }
        return FallbackImage(bytes: bytes, status: fallbackImageHTTPCode, ttl: fallbackImageTTL)
    }
}
