/// Removing entries: one image, everything, the expired, and the ones that no longer decode.
extension ImageCache {
    /// Removes a disk entry whose bytes do not decode, and counts it.
    func discardUndecodable(_ cacheKey: String, _ error: any Error) {
        logger.warning("removing undecodable disk entry", metadata: ["key": "\(cacheKey)", "error": "\(error)"])
        try? diskStorage.remove(forKey: cacheKey)
        counters.withLock { $0.undecodableRemoved += 1 }
    }

    /// Removes the original bytes stored under `key` because they do not decode (off the
    /// cooperative pool).
    func discardUndecodableData(forKey key: String, error: any Error) async {
        _ = try? await runOnIO { self.discardUndecodable(key, error) }
    }

    /// Removes what is cached for `key` (processed with `processorIdentifier` when given) from
    /// memory, disk or both.
    /// - Throws: the disk cache's error (`DiskCacheError/readOnly` on a read-only cache).
    public func removeImage(
        forKey key: String, processorIdentifier: String? = nil, fromMemory: Bool = true, fromDisk: Bool = true
    ) async throws {
        let cacheKey = Self.cacheKey(key, processorIdentifier: processorIdentifier)
        if fromMemory { _ = memoryStorage.remove(forKey: cacheKey) }
        if fromDisk { try await runOnIO { [diskStorage] in try diskStorage.remove(forKey: cacheKey) } }
    }

    public func clearMemoryCache() { memoryStorage.removeAll() }

    public func clearDiskCache() async throws {
        try await runOnIO { [diskStorage] in try diskStorage.removeAll() }
    }

    /// Removes expired disk entries (and trims the disk to half its limit when over it); returns
    /// how many entries went.
    @discardableResult
    public func cleanExpiredDiskCache() async -> Int {
        let removed = try? await runOnIO { [diskStorage] in
            diskStorage.removeExpiredValues().count + diskStorage.removeSizeExceededValues().count
        }
        _ = memoryStorage.removeExpired()
        return removed ?? 0
    }
}
