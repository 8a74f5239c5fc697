#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Renewing an entry its origin confirmed (`304 Not Modified`): new freshness in place, no payload
/// read or written.
extension DiskCache {
    /// Renews the entry for `key` after a revalidation confirmed it: `freshness` replaces its
    /// freshness and its expiry restarts from now (`expiration`, else the cache's own). Only the
    /// header's time fields are rewritten. With `validators`, an entry whose ETag or Last-Modified
    /// differ (a newer version another writer stored meanwhile) is left alone.
    /// - Returns: whether an entry was renewed.
    /// - Throws: ``DiskCacheError/readOnly(path:)``, ``DiskCacheError/invalidKey(_:)``,
    ///   ``DiskCacheError/writeFailed(path:errno:)``.
    @discardableResult
    public func renew(
        forKey key: String, freshness: EntryFreshness, expiration: StorageExpiration? = nil,
        validators: ResponseValidators? = nil
    ) throws(DiskCacheError) -> Bool {
        let id = try checkedID(key)
        if isReadOnly { throw .readOnly(path: directory) }
        let unhashedKey = config.usesHashedFileName ? nil : key
        let now = clock.now()
        let nowSeconds = now.timeIntervalSinceReferenceDate
        let expires =
            (expiration ?? config.expiration).expiryDate(from: now)?.timeIntervalSinceReferenceDate ?? .infinity
        let result: Result<Entry?, DiskCacheError> = fileLock(id).withLock { _ in
            let fd = withPath(id, key: unhashedKey) { open($0, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK) }
            guard fd >= 0 else {
                if errno == ENOENT || errno == ENOTDIR || errno == ELOOP { return .success(nil) }
                return .failure(.writeFailed(path: path(id, key: unhashedKey), errno: errno))
            }
            defer { close(fd) }
            guard let parsed = Self.readHeader(fd), parsed.info.key == key,
                parsed.info.expiresAt > nowSeconds,
                validators.map({
                    $0.etag == parsed.info.metadata.etag && $0.lastModified == parsed.info.metadata.lastModified
                })
                    ?? true
            else { return .success(nil) }
            // A version-1 header has no room for freshness: it keeps its own (while kept, fresh).
            let roomy = parsed.version >= 2
            var fresh = freshness
            let hasValidators = parsed.info.metadata.canRevalidate
            var expiry = expires
            if hasValidators {
                fresh.freshUntil = min(fresh.freshUntil, expiry)
            } else {
                expiry = min(expiry, fresh.freshUntil)
            }
            var times = (expiry.bitPattern.littleEndian, nowSeconds.bitPattern.littleEndian)
            let wrote = withUnsafeBytes(of: &times) { pwrite(fd, $0.baseAddress, 16, DiskEntryFormat.expiresOffset) }
            guard wrote == 16 else { return .failure(.writeFailed(path: path(id, key: unhashedKey), errno: errno)) }
            if roomy {
                let fields = DiskEntryFormat.freshnessFields(fresh, hasValidators: hasValidators)
                let n = fields.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, DiskEntryFormat.freshOffset) }
                guard n == fields.count else {
                    return .failure(.writeFailed(path: path(id, key: unhashedKey), errno: errno))
                }
            } else {
                fresh = parsed.info.freshness
            }
            return .success(
                Entry(
                    size: parsed.headerSize + parsed.info.size, expiresAt: expiry, lastAccess: nowSeconds,
                    freshUntil: fresh.freshUntil, headerSize: parsed.headerSize))
        }
        guard var entry = try result.get() else { return false }
        state.withLock { s in
            // The header changed: the file's stamp no longer matches, so its next read checks it.
            entry.generation = s.index[id]?.generation ?? s.nextGeneration()
            s.totalSize += entry.size - (s.index.updateValue(entry, forKey: id)?.size ?? 0)
            if let unhashedKey { s.keys[id] = unhashedKey }
        }
        return true
    }
}
