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
    /// row's times and the header's time fields are rewritten. With `validators`, an entry whose
    /// ETag or Last-Modified differ (a newer version another writer stored meanwhile) is left alone.
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
        guard let index = currentIndex(checkingFile: true) else { return false }
        let result: Result<Bool, DiskCacheError> = fileLock(id).withLock { _ in
            guard
                case .success(let found) = indexed(
                    index,
                    { (i) throws(SQLiteError) in
                        try i.read { (c) throws(SQLiteError) in
                            try c.row(id) { row, data in (row, data.map { [UInt8]($0) }) }
                        }
                    }), let (row, stored) = found, withPendingTouch(row, id).expiresAt > nowSeconds
            else { return .success(false) }
            var fd: Int32 = -1
            defer { if fd >= 0 { close(fd) } }
            let parsed: DiskEntryFormat.Parsed?
            if var bytes = stored {
                parsed = DiskEntryFormat.parse(
                    Array(bytes.prefix(DiskEntryFormat.maxHeaderSize)), fileSize: bytes.count)
                guard let parsed else { return .success(false) }
                return renewing(parsed, key: key, validators: validators, freshness: freshness, expires: expires) {
                    expiry, fresh, roomy in
                    Self.patch(&bytes, DiskEntryFormat.expiresOffset, times: (expiry, nowSeconds))
                    if roomy { Self.patch(&bytes, DiskEntryFormat.freshOffset, fields: fresh) }
                    return commitRenewal(index, id, row, expiry, nowSeconds, fresh.freshUntil, bytes)
                }
            }
            fd = withPath(id, key: unhashedKey) { open($0, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK) }
            guard fd >= 0 else {
                if errno == ENOENT || errno == ENOTDIR || errno == ELOOP { return .success(false) }
                return .failure(.writeFailed(path: path(id, key: unhashedKey), errno: errno))
            }
            parsed = Self.readHeader(fd)
            guard let parsed else { return .success(false) }
            return renewing(parsed, key: key, validators: validators, freshness: freshness, expires: expires) {
                expiry, fresh, roomy in
                var times = (expiry.bitPattern.littleEndian, nowSeconds.bitPattern.littleEndian)
                let wrote = withUnsafeBytes(of: &times) {
                    pwrite(fd, $0.baseAddress, 16, DiskEntryFormat.expiresOffset)
                }
                guard wrote == 16 else { return .failure(.writeFailed(path: path(id, key: unhashedKey), errno: errno)) }
                if roomy {
                    let fields = DiskEntryFormat.freshnessFields(
                        fresh, hasValidators: parsed.info.metadata.canRevalidate)
                    let n = fields.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, DiskEntryFormat.freshOffset) }
                    guard n == fields.count else {
                        return .failure(.writeFailed(path: path(id, key: unhashedKey), errno: errno))
                    }
                }
                // The header changed: its next read checks the payload again.
                forgetFile(id)
                return commitRenewal(index, id, row, expiry, nowSeconds, fresh.freshUntil, nil)
            }
        }
        return try result.get()
    }

    /// Checks `parsed` against the key and validators, works out the new expiry and freshness,
    /// and hands them to `write` (with whether the header has room for freshness: version 2).
    private func renewing(
        _ parsed: DiskEntryFormat.Parsed, key: String, validators: ResponseValidators?, freshness: EntryFreshness,
        expires: Double, write: (Double, EntryFreshness, Bool) -> Result<Bool, DiskCacheError>
    ) -> Result<Bool, DiskCacheError> {
        guard parsed.info.key == key,
            validators.map({
                $0.etag == parsed.info.metadata.etag && $0.lastModified == parsed.info.metadata.lastModified
            }) ?? true
        else { return .success(false) }
        // A version-1 header has no room for freshness: it keeps its own (while kept, fresh).
        let roomy = parsed.version >= 2
        var fresh = freshness
        var expiry = expires
        if parsed.info.metadata.canRevalidate {
            fresh.freshUntil = min(fresh.freshUntil, expiry)
        } else {
            expiry = min(expiry, fresh.freshUntil)
        }
        if !roomy { fresh = parsed.info.freshness }
        return write(expiry, fresh, roomy)
    }

    private func commitRenewal(
        _ index: CacheIndex, _ id: EntryID, _ row: IndexRow, _ expiry: Double, _ now: Double, _ freshUntil: Double,
        _ bytes: [UInt8]?
    ) -> Result<Bool, DiskCacheError> {
        _ = pendingTouches.withLock { $0.touches.removeValue(forKey: id) }
        let result = indexed(index) { (i) throws(SQLiteError) in
            try i.write { (c) throws(SQLiteError) in
                try c.renewRow(id, expiresAt: expiry, lastAccess: now, freshUntil: freshUntil, data: bytes)
            }
        }
        if case .failure(let error) = result {
            return .failure(.writeFailed(path: index.path, errno: error.errnoValue))
        }
        return .success(true)
    }

    private static func patch(_ bytes: inout [UInt8], _ offset: off_t, times: (Double, Double)) {
        var fields = (times.0.bitPattern.littleEndian, times.1.bitPattern.littleEndian)
        withUnsafeBytes(of: &fields) { raw in
            for i in 0..<16 { bytes[Int(offset) + i] = raw[i] }
        }
    }

    private static func patch(_ bytes: inout [UInt8], _ offset: off_t, fields fresh: EntryFreshness) {
        let hasValidators = bytes.withUnsafeBytes { DiskEntryFormat.freshness($0).hasValidators }
        let fields = DiskEntryFormat.freshnessFields(fresh, hasValidators: hasValidators)
        for (i, b) in fields.enumerated() { bytes[Int(offset) + i] = b }
    }
}
