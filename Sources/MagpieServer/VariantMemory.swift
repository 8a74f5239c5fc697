import Magpie
import MagpieImage

/// The encoded variants answered lately, in memory: a hit skips the pipeline (its flight, the
/// disk read and check, the hashing of the bytes). Entries live at most a short time and are not
/// extended by reads, so a variant whose source the origin changes is looked up on disk again
/// (and its source revalidated there) within that time. A variant is kept from its second
/// request on (``Doorkeeper``): one asked once, as in a crawl or a cold start, costs no memory.
struct VariantMemory: Sendable {
    struct Variant: Sendable, CacheCostCalculable {
        var data: [UInt8]
        var format: ImageFormat
        var etag: String
        /// The origin's `Last-Modified`, kept only when it parses as an HTTP date.
        var lastModified: String?
        /// The origin's freshness for the source (``RetrieveDataResult/freshness``).
        var freshness: EntryFreshness = .unlimited
        /// The answer's type where it is not the format's (thumbor's `meta`: JSON).
        var contentType: String?
        var cacheCost: Int { data.count + 256 }
    }

    private let cache: MemoryCache<String, Variant>?
    private let lifetime: Double
    private let doorkeeper = Doorkeeper()

    /// `limit` bytes at most (0: no memory tier), each entry for `lifetime` seconds. Expired
    /// entries are swept every sixth of the lifetime (1 s to 1 h apart): they are dead
    /// bytes, and a sweep once a lifetime let them pile up to a lifetime's worth of admissions
    /// (in the soak, RSS rose and fell by megabytes with each sweep).
    init(limit: Int, lifetime: Double) {
        self.lifetime = lifetime
        cache =
            limit > 0 && lifetime > 0
            ? MemoryCache(
                config: .init(
                    totalCostLimit: limit, expiration: .seconds(lifetime),
                    cleanInterval: .seconds(min(max(1, lifetime / 6), 3600))))
            : nil
    }

    /// Bytes the tier holds now, expired entries not yet swept included.
    var bytes: Int { cache?.totalCost ?? 0 }

    func variant(forKey key: String) -> Variant? {
        cache?.value(forKey: key, extendingExpiration: .none)
    }

    /// Keeps `result` under `key` and returns it with its ETag.
    @discardableResult
    func store(_ result: RetrieveDataResult, forKey key: String) -> Variant {
        let variant = Variant(
            data: result.data, format: result.format, etag: "\"" + Digest.hex(Digest.md5(result.data)) + "\"",
            lastModified: result.lastModified.flatMap { HTTPDate.parse($0) == nil ? nil : $0 },
            freshness: result.freshness)
        if let cache, doorkeeper.admits(key) { _ = cache.store(variant, forKey: key) }
        return variant
    }
}

/// "Cache on second hit": admits a key the second time it is seen. One bit per hashed key in a
/// fixed table (256 KiB), cleared once an eighth of it is set, so it stays small whatever the
/// traffic, and a key seen once is admitted by mistake at most one time in eight.
final class Doorkeeper: Sendable {
    private struct State {
        var words: [UInt64]
        var set = 0
        init(bits: Int) { words = [UInt64](repeating: 0, count: bits / 64) }
    }

    /// Bits in the table: 2^21 (256 KiB) unless a test asks for fewer.
    let bits: Int
    private let state: Locked<State>

    init(bits: Int = 1 << 21) {
        self.bits = max(64, bits)
        state = Locked(State(bits: self.bits))
    }

    /// Keys remembered since the last clearing.
    var remembered: Int { state.withLock { $0.set } }

    /// Whether `key` was seen before (since the last clearing); remembers it either way.
    func admits(_ key: String) -> Bool {
        var hasher = Hasher()
        hasher.combine(key)
        let index = Int(UInt64(bitPattern: Int64(hasher.finalize())) % UInt64(bits))
        let (word, bit) = (index >> 6, UInt64(1) << UInt64(index & 63))
        let bits = self.bits
        return state.withLock { s in
            if s.words[word] & bit != 0 { return true }
            if s.set >= bits / 8 { s = State(bits: bits) }
            s.words[word] |= bit
            s.set += 1
            return false
        }
    }
}
