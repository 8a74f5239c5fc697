import Magpie
import MagpieImage

/// The encoded variants answered lately, in memory: a hit skips the pipeline (its flight, the
/// disk read and check, the hashing of the bytes). Entries live at most a short time and are not
/// extended by reads, so a variant whose source the origin changes is looked up on disk again
/// (and its source revalidated there) within that time.
struct VariantMemory: Sendable {
    struct Variant: Sendable, CacheCostCalculable {
        var data: [UInt8]
        var format: ImageFormat
        var etag: String
        var lastModified: String?
        var cacheCost: Int { data.count + 256 }
    }

    private let cache: MemoryCache<String, Variant>?
    private let lifetime: Double

    /// `limit` bytes at most (0: no memory tier), each entry for `lifetime` seconds.
    init(limit: Int, lifetime: Double) {
        self.lifetime = lifetime
        cache =
            limit > 0 && lifetime > 0
            ? MemoryCache(
                config: .init(totalCostLimit: limit, expiration: .seconds(lifetime), cleanInterval: .seconds(60)))
            : nil
    }

    func variant(forKey key: String) -> Variant? {
        cache?.value(forKey: key, extendingExpiration: .none)
    }

    /// Keeps `result` under `key` and returns it with its ETag.
    @discardableResult
    func store(_ result: RetrieveDataResult, forKey key: String) -> Variant {
        let variant = Variant(
            data: result.data, format: result.format, etag: "\"" + Digest.hex(Digest.md5(result.data)) + "\"",
            lastModified: result.lastModified)
        _ = cache?.store(variant, forKey: key)
        return variant
    }
}
