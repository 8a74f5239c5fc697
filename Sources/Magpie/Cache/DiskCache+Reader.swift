#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reading entries: a row's bytes or a file, checked (header, key, CRC-32C, expiry), and the file helpers.
extension DiskCache {
    // MARK: - reading

    /// The payload for `key`, or `nil` when there is none, it expired (then it is removed) or it
    /// fails validation (then it is removed and counted). Reading updates the last access and
    /// extends the expiry as asked.
    /// - Throws: ``DiskCacheError/readFailed(path:errno:)`` for I/O errors other than absence.
    public func value(forKey key: String, extendingExpiration extending: ExpirationExtending = .cacheTime)
        throws(DiskCacheError) -> [UInt8]?
    {
        try entry(forKey: key, extendingExpiration: extending)?.payload
    }

    /// An entry as a read found it.
    struct Hit {
        var payload: [UInt8]
        /// When the entry goes (seconds since the reference date; `.infinity` for never).
        var expiresAt: Double
        var freshness: EntryFreshness
        /// Whether the origin's freshness had passed at the read (only with `allowingStale`).
        var isStale: Bool
        /// The validators, content type and variant kept with it (no second read needed).
        var metadata: DiskEntryMetadata
        /// The response's variant (see ``ResponseValidators/variant``), when it had `Vary`.
        var variant: String? { metadata.variant }
    }

    /// As ``value(forKey:extendingExpiration:)``, with the entry's expiry and freshness. A stale
    /// entry (see ``EntryFreshness``) is returned only `allowingStale`; otherwise it is a miss,
    /// and it stays for a revalidation.
    func entry(
        forKey key: String, extendingExpiration extending: ExpirationExtending = .cacheTime,
        allowingStale: Bool = false
    ) throws(DiskCacheError) -> Hit? {
        let id = try checkedID(key)
        let unhashedKey = config.usesHashedFileName ? nil : key
        let now = clock.now()
        let nowSeconds = now.timeIntervalSinceReferenceDate
        guard let index = currentIndex() else {
            // A read-only folder of an earlier version, without an index: its files, read as they are.
            return try fileHit(id, key: key, row: nil, now: now, extending: extending, allowingStale: allowingStale)
        }
        // A large entry read (or written) in the last second: its file, without the index.
        if let hit = headHit(id, key: key, now: now, extending: extending, allowingStale: allowingStale) { return hit }
        let looked = indexed(index) { (i) throws(SQLiteError) in
            try i.read { (c) throws(SQLiteError) in
                try c.row(id) { row, data -> (IndexRow, Validated?) in
                    (row, data.flatMap { Self.validatedRow($0, key: key) })
                }
            }
        }
        let found: (IndexRow, Validated?)?
        switch looked {
        case .failure(let error):
            if error.isCorrupt { return nil }
            throw .readFailed(path: index.path, errno: error.errnoValue)
        case .success(let value): found = value
        }
        guard let (stored, validated) = found else {
            // No row: a file an earlier version or a crashed writer left, if any.
            return try fileHit(id, key: key, row: nil, now: now, extending: extending, allowingStale: allowingStale)
        }
        let row = withPendingTouch(stored, id)
        if row.expiresAt <= nowSeconds {
            discard(id, key: unhashedKey, row: stored)
            return nil
        }
        if row.freshUntil <= nowSeconds && !allowingStale { return nil }
        if row.isFile {
            return try fileHit(
                id, key: key, row: row, stored: stored, now: now, extending: extending, allowingStale: allowingStale)
        }
        guard let validated else {
            if discard(id, key: unhashedKey, row: stored) { counters.withLock { $0.invalid += 1 } }
            return nil
        }
        if !allowingStale && !validated.facts.freshness.isFresh(at: nowSeconds) { return nil }
        let expires = touch(id, row, stored: stored, facts: validated.facts, now: now, extending: extending)
        return Hit(
            payload: validated.payload, expiresAt: expires, freshness: validated.facts.freshness,
            isStale: !validated.facts.freshness.isFresh(at: nowSeconds), metadata: validated.facts.metadata)
    }

    /// A row entry's bytes once checked: the header written for this key, of the row's length,
    /// and a payload that passes its CRC.
    struct Validated {
        var facts: DiskEntryFormat.Facts
        var payload: [UInt8]
    }

    static func validatedRow(_ bytes: UnsafeRawBufferPointer, key: String) -> Validated? {
        guard let facts = DiskEntryFormat.facts(bytes, fileSize: bytes.count, key: key) else { return nil }
        let payload = UnsafeRawBufferPointer(rebasing: bytes[facts.headerSize...])
        guard Digest.crc32c(payload) == facts.crc else { return nil }
        return Validated(facts: facts, payload: [UInt8](payload))
    }

    /// The entry file of `id`, read and checked, as a hit; `row` is its row (`nil`: the file has
    /// none yet, and is taken into the index, as a row when it is small enough).
    func fileHit(
        _ id: EntryID, key: String, row: IndexRow?, stored: IndexRow? = nil, now: Date, extending: ExpirationExtending,
        allowingStale: Bool
    ) throws(DiskCacheError) -> Hit? {
        let unhashedKey = config.usesHashedFileName ? nil : key
        let nowSeconds = now.timeIntervalSinceReferenceDate
        switch withPath(id, key: unhashedKey, { readFile($0, id: id, key: key, headerSize: row?.headerSize ?? 0) }) {
        case .missing:
            if row != nil { discard(id, key: unhashedKey, row: row, unlinking: false) }
            return nil
        case .failed(let e):
            throw .readFailed(path: path(id, key: unhashedKey), errno: e)
        case .invalid:
            if discard(id, key: unhashedKey, row: row) { counters.withLock { $0.invalid += 1 } }
            return nil
        case .hit(let payload, let facts, let stamp):
            var current =
                row
                ?? IndexRow(
                    isFile: true, size: facts.headerSize + facts.payloadSize, disk: 0, expiresAt: facts.expiresAt,
                    lastAccess: facts.lastAccess, freshUntil: facts.freshness.freshUntil, inode: stamp.inode)
            if current.expiresAt <= nowSeconds {
                discard(id, key: unhashedKey, row: row)
                return nil
            }
            if !allowingStale && !facts.freshness.isFresh(at: nowSeconds) { return nil }
            var indexed = stored ?? current
            var isIndexed = row != nil
            if row == nil || current.size <= config.inlineThreshold {
                // An earlier version's entry (or one a crashed writer left unindexed): indexed now,
                // as a row when it is small enough, and its file then goes.
                isIndexed = adopt(id, key: key, payload: payload, facts: facts, stamp: stamp, row: &current)
                indexed = current
            }
            if isIndexed { rememberHead(id, indexed, stamp: stamp, at: nowSeconds) }
            let expires = touch(id, current, stored: indexed, facts: facts, now: now, extending: extending)
            return Hit(
                payload: payload, expiresAt: expires, freshness: facts.freshness,
                isStale: !facts.freshness.isFresh(at: nowSeconds), metadata: facts.metadata)
        }
    }

    enum FileRead {
        case missing
        case failed(Int32)
        case invalid
        case hit([UInt8], DiskEntryFormat.Facts, FileStamp)
    }

    /// Reads and checks the entry file at `path`: a regular file within the size cap, its header
    /// written for `key`, its payload passing the CRC (skipped when this process checked this
    /// very file before).
    func readFile(_ path: UnsafePointer<CChar>, id: EntryID, key: String, headerSize known: Int = 0) -> FileRead {
        let opened = openEntryFile(path)
        guard case .opened(let fd, let stamp) = opened else { return opened.failure }
        defer { close(fd) }
        return readOpened(fd, stamp: stamp, id: id, key: key, headerSize: known)
    }

    enum OpenedFile {
        case opened(Int32, FileStamp)
        case refused(FileRead)

        var failure: FileRead {
            if case .refused(let read) = self { return read }
            return .invalid
        }
    }

    /// Opens the entry file at `path` for reading: a regular file within the size cap, and its stamp.
    func openEntryFile(_ path: UnsafePointer<CChar>) -> OpenedFile {
        // O_NONBLOCK and O_NOFOLLOW: a FIFO or a link planted under the entry's name is refused
        // without blocking or following; so is anything but a regular file within the size cap.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
        guard fd >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { return .refused(.missing) }
            return .refused(errno == ELOOP ? .invalid : .failed(errno))
        }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let failure = errno
            close(fd)
            return .refused(.failed(failure))
        }
        guard (st.st_mode & S_IFMT) == S_IFREG, Int(st.st_size) <= config.entryCap else {
            close(fd)
            return .refused(.invalid)
        }
        return .opened(fd, FileStamp(st))
    }

    /// Reads and checks the opened entry file `fd` (see ``readFile(_:id:key:headerSize:)``).
    func readOpened(_ fd: Int32, stamp: FileStamp, id: EntryID, key: String, headerSize known: Int) -> FileRead {
        var payload: [UInt8] = []
        var facts: DiskEntryFormat.Facts?
        if known >= DiskEntryFormat.minimumFixedSize, known <= stamp.size, known <= DiskEntryFormat.maxHeaderSize {
            // The row knows the header's size: header and payload in one read.
            withUnsafeTemporaryAllocation(byteCount: known, alignment: 8) { header in
                var complete = false
                payload = [UInt8](unsafeUninitializedCapacity: stamp.size - known) { buffer, count in
                    complete = Self.readTwo(fd, header, UnsafeMutableRawBufferPointer(buffer)) == stamp.size
                    count = complete ? stamp.size - known : 0
                }
                if complete {
                    facts = DiskEntryFormat.facts(UnsafeRawBufferPointer(header), fileSize: stamp.size, key: key)
                }
            }
        }
        if facts == nil {
            // No row yet, or the file changed under it: the header says how long it is.
            guard let header = Self.readHeader(fd), header.info.key == key else { return .invalid }
            payload = [UInt8](unsafeUninitializedCapacity: header.info.size) { buffer, count in
                count = Self.readAll(fd, UnsafeMutableRawBufferPointer(buffer), at: off_t(header.headerSize))
            }
            guard payload.count == header.info.size else { return .invalid }
            facts = DiskEntryFormat.Facts(
                headerSize: header.headerSize, payloadSize: header.info.size, crc: header.crc,
                expiresAt: header.info.expiresAt, lastAccess: header.info.lastAccess,
                freshness: header.info.freshness, hasValidators: header.info.metadata.canRevalidate,
                metadata: header.info.metadata)
        }
        guard let facts else { return .invalid }
        if verifiedFiles.withLock({ $0[id] }) != stamp.digest {
            guard Self.crc(payload) == facts.crc else { return .invalid }
            rememberVerified(id, stamp)
        }
        return .hit(payload, facts, stamp)
    }

    /// The expiry a read leaves the entry with (extended as asked), recorded as a pending touch:
    /// the index learns the read's time at the next flush (see ``flushTouches()``).
    /// `row` is the entry as this process sees it (its own waiting touch applied), `stored` as the
    /// index has it.
    func touch(
        _ id: EntryID, _ row: IndexRow, stored: IndexRow? = nil, facts: DiskEntryFormat.Facts, now: Date,
        extending: ExpirationExtending
    ) -> Double {
        let nowSeconds = now.timeIntervalSinceReferenceDate
        // The entry's own lifetime: expiry and last access are always written together, so their
        // difference is the lifetime last set.
        let lifetime = row.expiresAt - row.lastAccess
        let fallback = config.expiration
        var expires = extending.extendedExpiry(from: row.expiresAt, at: now) { date in
            lifetime > 0 && lifetime.isFinite ? date.addingTimeInterval(lifetime) : fallback.expiryDate(from: date)
        }
        // Without validators nothing can renew an entry: reads never keep it past its freshness.
        if !facts.hasValidators { expires = min(expires, max(row.expiresAt, facts.freshness.freshUntil)) }
        if !isReadOnly && (expires != row.expiresAt || nowSeconds != row.lastAccess) {
            recordTouch(id, row: stored ?? row, expiresAt: expires, lastAccess: nowSeconds)
        }
        return expires
    }
}
