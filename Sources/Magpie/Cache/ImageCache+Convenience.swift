/// The calls Kingfisher users know, with loose parameters: each builds a ``CachePolicy`` and
/// goes through the policy-taking form.
extension ImageCache {
    /// Stores `image` in memory and (unless `toDisk` is false) its serialized bytes on disk.
    /// With `waitForDisk` false the disk write runs in the background (see ``shutdown()``).
    /// - Throws: the serializer's or the disk cache's error when waiting for the disk write.
    public func store(
        _ image: Image, original: [UInt8]? = nil, forKey key: String, processorIdentifier: String? = nil,
        toDisk: Bool = true, waitForDisk: Bool = true, memoryExpiration: StorageExpiration? = nil,
        diskExpiration: StorageExpiration? = nil, serializer: (any CacheSerializer)? = nil
    ) async throws {
        let policy = CachePolicy(
            memoryExpiration: memoryExpiration, diskExpiration: diskExpiration, serializer: serializer,
            writesToDisk: toDisk, waitsForDisk: waitForDisk)
        try await store(
            image, original: original, forKey: key, processorIdentifier: processorIdentifier, policy: policy)
    }

    /// Stores bytes (an original download, say) on disk only; in the background unless
    /// `waitForDisk` (see ``shutdown()``).
    public func storeToDisk(
        _ data: [UInt8], forKey key: String, processorIdentifier: String? = nil, expiration: StorageExpiration? = nil,
        metadata: DiskEntryMetadata = DiskEntryMetadata(), waitForDisk: Bool = true
    ) async throws {
        try await storeToDisk(
            data, forKey: key, processorIdentifier: processorIdentifier, metadata: metadata,
            policy: CachePolicy(diskExpiration: expiration, waitsForDisk: waitForDisk))
    }

    /// The image for `key` in memory only (counted as a memory hit or miss).
    public func retrieveImageInMemoryCache(
        forKey key: String, processorIdentifier: String? = nil, extendingExpiration: ExpirationExtending = .cacheTime
    ) -> Image? {
        memoryImage(
            forKey: key, processorIdentifier: processorIdentifier,
            policy: CachePolicy(memoryExtending: extendingExpiration))
    }

    /// The bytes stored on disk for `key`, read off the cooperative pool; `nil` when absent.
    public func retrieveDataInDiskCache(
        forKey key: String, processorIdentifier: String? = nil, extendingExpiration: ExpirationExtending = .cacheTime
    ) async throws -> [UInt8]? {
        try await diskData(
            forKey: key, processorIdentifier: processorIdentifier,
            policy: CachePolicy(diskExtending: extendingExpiration))
    }

    /// The image for `key`: from memory, else decoded from disk and promoted to memory.
    /// - Throws: disk read errors; an entry that no longer decodes is removed and reported as a miss.
    public func retrieveImage(
        forKey key: String, processorIdentifier: String? = nil, options: DecodingOptions = .default,
        memoryExpiration: StorageExpiration? = nil, memoryExtending: ExpirationExtending = .cacheTime,
        diskExtending: ExpirationExtending = .cacheTime, serializer: (any CacheSerializer)? = nil
    ) async throws -> (image: Image?, cacheType: CacheType) {
        let policy = CachePolicy(
            memoryExpiration: memoryExpiration, memoryExtending: memoryExtending, diskExtending: diskExtending,
            serializer: serializer)
        if let image = memoryImage(forKey: key, processorIdentifier: processorIdentifier, policy: policy) {
            return (image, .memory)
        }
        let hit = try await diskImage(
            forKey: key, processorIdentifier: processorIdentifier, options: options, policy: policy)
        return hit.map { ($0.image, .disk) } ?? (nil, .none)
    }
}
