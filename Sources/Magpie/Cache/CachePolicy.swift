#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How one call uses the caches (Kingfisher's parsed options, for the cache layer): expiries,
/// how reads extend them, the serializer, and whether and how the disk is written. Built once
/// per retrieval from `ImageOptions/CacheOptions/policy` and passed through the layers as one value.
public struct CachePolicy: Sendable {
    /// Memory expiry of what is stored (`nil`: the memory cache's own).
    public var memoryExpiration: StorageExpiration?
    /// How a memory hit extends the entry's expiry.
    public var memoryExtending: ExpirationExtending
    /// Disk expiry of what is stored (`nil`: the disk cache's own).
    public var diskExpiration: StorageExpiration?
    /// How a disk hit extends the entry's expiry.
    public var diskExtending: ExpirationExtending
    /// The serializer for disk writes and reads (`nil`: the cache's own).
    public var serializer: (any CacheSerializer)?
    /// Store on disk too (`false`: memory only).
    public var writesToDisk: Bool
    /// Return only after the disk write finished (else it runs in the background).
    public var waitsForDisk: Bool
    /// The longest what is stored may stay, in seconds: the freshness the origin gave its
    /// response (`Cache-Control: max-age`, `Expires`). It shortens the memory and disk
    /// expirations (the per-call ones, else the caches' own) and never lengthens them; `nil`
    /// leaves them as they are.
    public var freshnessLimit: TimeInterval?
    /// The origin's freshness for what is stored on disk (see ``EntryFreshness``): an entry with
    /// validators is kept for its disk expiration and revalidated once stale; one without is kept
    /// no longer than its freshness. ``EntryFreshness/unlimited`` (the default): fresh while kept.
    public var freshness: EntryFreshness = .unlimited

    public init(
        memoryExpiration: StorageExpiration? = nil, memoryExtending: ExpirationExtending = .cacheTime,
        diskExpiration: StorageExpiration? = nil, diskExtending: ExpirationExtending = .cacheTime,
        serializer: (any CacheSerializer)? = nil, writesToDisk: Bool = true, waitsForDisk: Bool = true
    ) {
        self.memoryExpiration = memoryExpiration
        self.memoryExtending = memoryExtending
        self.diskExpiration = diskExpiration
        self.diskExtending = diskExtending
        self.serializer = serializer
        self.writesToDisk = writesToDisk
        self.waitsForDisk = waitsForDisk
    }

    /// `expiration` shortened to ``freshnessLimit`` from `now`.
    func capped(_ expiration: StorageExpiration, now: Date) -> StorageExpiration {
        guard let limit = freshnessLimit else { return expiration }
        if limit <= 0 { return .expired }
        guard let current = expiration.expiryDate(from: now) else { return .seconds(limit) }
        return current.timeIntervalSince(now) <= limit ? expiration : .seconds(limit)
    }
}
