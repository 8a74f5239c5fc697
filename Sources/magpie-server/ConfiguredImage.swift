import ArgumentParser
import Magpie

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An image a setting names (the fallback, the watermark) as imgproxy's variables give it: a
/// file, base64 text or a URL. Read once at start, bounded by `--max-src-bytes`; a URL is fetched
/// through the manager, so the address policy and the source limits judge it as any source; the
/// bytes must be an image this server reads.
enum ConfiguredImage {
    /// The bytes, or `nil` when none of the three is given.
    static func load(
        path: String?, url: String?, data: String?, flag: String, manager: ImageManager, maxBytes: Int
    ) async throws -> [UInt8]? {
        let given = [path, url, data].compactMap { $0 }
        guard !given.isEmpty else { return nil }
        guard given.count == 1 else { throw ValidationError("give one of \(flag)-path, \(flag)-url and \(flag)-data") }
        let bytes: [UInt8]
        if let path {
            guard let data = FileManager.default.contents(atPath: path), data.count <= maxBytes else {
                throw ValidationError("\(flag)-path \(path): cannot be read, or larger than --max-src-bytes")
            }
            bytes = Array(data)
        } else if let text = data {
            guard text.utf8.count <= maxBytes / 3 * 4 + 4, let data = Data(base64Encoded: text) else {
                throw ValidationError("\(flag)-data: not base64, or larger than --max-src-bytes")
            }
            bytes = Array(data)
        } else {
            guard let text = url, let url = URL(string: text), url.scheme != nil else {
                throw ValidationError("\(flag)-url: not a URL")
            }
            var options = manager.defaultOptions
            options.cache.memory.expiration = .expired
            do {
                bytes = try await manager.retrieveData(with: .network(url), options: options).data
            } catch {
                throw ValidationError("\(flag)-url \(text): \(error)")
            }
        }
        guard (try? ImageInfo(probing: bytes)) != nil else {
            throw ValidationError("\(flag): not an image this server reads")
        }
        return bytes
    }
}
