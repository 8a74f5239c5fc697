import Dispatch

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Bytes that do not come from a URL download: made in memory, read from a store of your own
/// (Kingfisher's `ImageDataProvider`). The pipeline caches what it makes under `cacheKey`.
public protocol ImageDataProvider: Sendable {
    var cacheKey: String { get }
    func data() async throws -> [UInt8]
}

/// Bytes you already have.
public struct RawImageDataProvider: ImageDataProvider {
    public let bytes: [UInt8]
    public let cacheKey: String
    public init(_ bytes: [UInt8], cacheKey: String) {
        self.bytes = bytes
        self.cacheKey = cacheKey
    }
    public func data() async throws -> [UInt8] { bytes }
}

/// A local file, read off the cooperative pool; keyed unless you say otherwise by its `file:`
/// URL, percent-encoded as `URL(fileURLWithPath:)` writes it, so the provider and a
/// `.network(URL(fileURLWithPath: path))` source share one entry.
public struct LocalFileImageDataProvider: ImageDataProvider {
    public let path: String
    public let cacheKey: String
    public let maxSize: Int
    public init(path: String, cacheKey: String? = nil, maxSize: Int = 256 << 20) {
        self.path = path
        self.cacheKey = cacheKey ?? URL(fileURLWithPath: path, isDirectory: false).absoluteString
        self.maxSize = maxSize
    }
    public func data() async throws -> [UInt8] {
        let (path, limit) = (path, maxSize)
        return try await BlockingExecutor.io.run { try FileDataLoader.read(path, limit: limit).get() }
    }
}

/// Where an image comes from.
public enum Source: Sendable {
    /// A URL (`http`, `https`, `file` or a scheme you gave the downloader a transport for),
    /// cached under `cacheKey` or else the URL (after the manager's key filter).
    case network(URL, cacheKey: String? = nil)
    case provider(any ImageDataProvider)

    public var url: URL? {
        if case .network(let url, _) = self { return url }
        return nil
    }

    /// The key before filtering.
    var rawCacheKey: String {
        switch self {
        case .network(let url, let key): return key ?? url.absoluteString
        case .provider(let p): return p.cacheKey
        }
    }
}

extension Source: CustomStringConvertible {
    public var description: String {
        switch self {
        case .network(let url, _): return url.absoluteString
        case .provider(let p): return "provider(\(p.cacheKey))"
        }
    }
}
