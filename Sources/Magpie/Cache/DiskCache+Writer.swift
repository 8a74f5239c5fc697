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

/// Writing entries: a row of the index, or a temporary file renamed into place and its row; the limits.
extension DiskCache {
    // MARK: - writing

    /// Stores `data` for `key`, replacing any entry, through a temporary file and a rename.
    ///
    /// `freshness` is what the origin said (see ``EntryFreshness``): with validators in
    /// `metadata` the entry is kept for its expiry and revalidated once stale; without them it is
    /// never kept past its freshness (and one stale already is not written).
    /// - Throws: ``DiskCacheError/writeFailed(path:errno:)`` (disk full, file-size limit, no
    ///   permission, name too long…), ``DiskCacheError/entryTooLarge(size:limit:)``,
    ///   ``DiskCacheError/invalidKey(_:)``. A failed write leaves no file behind.
    public func store(
        _ data: [UInt8], forKey key: String, expiration: StorageExpiration? = nil,
        metadata: DiskEntryMetadata = DiskEntryMetadata(), freshness: EntryFreshness = .unlimited
    ) throws(DiskCacheError) {
        let id = try checkedID(key)
        if isReadOnly { throw .readOnly(path: directory) }
        let exp = expiration ?? config.expiration
        let now = clock.now()
        var expires = exp.expiryDate(from: now)?.timeIntervalSinceReferenceDate ?? .infinity
        var freshness = freshness
        if metadata.canRevalidate {
            freshness.freshUntil = min(freshness.freshUntil, expires)
        } else {
            expires = min(expires, freshness.freshUntil)
        }
        if exp.isExpired || (!metadata.canRevalidate && freshness.freshUntil <= now.timeIntervalSinceReferenceDate) {
            try? remove(forKey: key)
            return
        }
        let crc = Digest.crc32c(data)
        guard
            let header = DiskEntryFormat.header(
                key: key, payloadSize: data.count, crc: crc, created: now.timeIntervalSinceReferenceDate,
                expires: expires, metadata: metadata, freshness: freshness)
        else { throw .invalidKey(key) }
        let entrySize = header.count + data.count
        if entrySize > config.entryCap { throw .entryTooLarge(size: entrySize, limit: config.entryCap) }
        let unhashedKey = config.usesHashedFileName ? nil : key
        var row = IndexRow(
            isFile: false, size: entrySize, disk: entrySize + IndexRow.rowOverhead, expiresAt: expires,
            lastAccess: now.timeIntervalSinceReferenceDate, freshUntil: freshness.freshUntil,
            inode: UInt64.random(in: 1...UInt64.max), headerSize: header.count)
        var outcome: WriteOutcome
        if entrySize <= config.inlineThreshold {
            let bytes = header + data
            outcome = bytes.withUnsafeBytes { writeRow(id, key: unhashedKey, row, bytes: $0) }
        } else {
            row.isFile = true
            outcome = writeFile(id, key: unhashedKey, &row, header: header, data: data)
        }
        // The folder vanished under us (a temp cleaner, `rm -rf`, a volume reset): make it again
        // and write once more, rather than stop caching for good.
        if outcome.failure == ENOENT && access(directory, F_OK) != 0 && recreateDirectory() {
            if row.isFile {
                outcome = writeFile(id, key: unhashedKey, &row, header: header, data: data)
            } else {
                let bytes = header + data
                outcome = bytes.withUnsafeBytes { writeRow(id, key: unhashedKey, row, bytes: $0) }
            }
        }
        if outcome.failure != 0 { throw .writeFailed(path: path(id, key: unhashedKey), errno: outcome.failure) }
        removeFiles(of: outcome.evicted)
        if outcome.needsCompaction, let index = currentIndex() { compact(index) }
        if outcome.overLimit || freeSpaceIsLow() { scheduleTrim() }
    }

    struct WriteOutcome {
        var failure: Int32 = 0
        /// Entries the write's transaction removed to stay within the limits (their files go next).
        var evicted: [IndexVictim] = []
        /// Whether a limit was exceeded (a trim to half is due).
        var overLimit = false
        /// Whether the evictions left enough free pages in the index to give them back now.
        var needsCompaction = false
    }

    /// Writes a row entry: its bytes into the index, in one transaction with the limits kept.
    private func writeRow(_ id: EntryID, key: String?, _ row: IndexRow, bytes: UnsafeRawBufferPointer) -> WriteOutcome {
        guard let index = currentIndex(checkingFile: true) else { return WriteOutcome(failure: ENOENT) }
        return fileLock(id).withLock { _ in
            var outcome = WriteOutcome()
            let result = indexed(index) { (i) throws(SQLiteError) in
                try i.write { (c) throws(SQLiteError) in
                    let previous = try c.putRow(id, key: key, row, data: bytes)
                    let kept = try keepLimits(c, index, sparing: id)
                    return (previous, kept)
                }
            }
            switch result {
            case .failure(let error): outcome.failure = error.errnoValue
            case .success(let (previous, kept)):
                (outcome.evicted, outcome.overLimit, outcome.needsCompaction) = kept
                // The entry was a file: it is a row now, and the file goes (unless newer).
                if let previous, previous.isFile { unlinkFile(id, key: key, inode: previous.inode) }
            }
            return outcome
        }
    }

    /// Writes a file entry: a temporary file, its blocks and inode, a rename, then its row.
    private func writeFile(_ id: EntryID, key: String?, _ row: inout IndexRow, header: [UInt8], data: [UInt8])
        -> WriteOutcome
    {
        guard let index = currentIndex(checkingFile: true) else { return WriteOutcome(failure: ENOENT) }
        let counter = temporaryCounter.withLock { c -> UInt64 in
            c &+= 1
            return c
        }
        var outcome = WriteOutcome()
        var stamp: FileStamp?
        outcome.failure = withTemporaryPath(counter) { temporary -> Int32 in
            // 0600: entries may hold images fetched with credentials.
            var fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if fd < 0 && errno == ENOENT && access(directory, F_OK) == 0 {
                // The temporary folder went (the folder itself is still here): made again.
                Self.makeTemporaryFolder(directory)
                fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            }
            guard fd >= 0 else { return errno }
            var failure = Self.writeAll(fd, header, data)
            var st = stat()
            if failure == 0 {
                if fstat(fd, &st) == 0 { stamp = FileStamp(st) } else { failure = errno }
            }
            if close(fd) != 0 && failure == 0 { failure = errno }
            if failure == 0 {
                row.inode = UInt64(st.st_ino)
                row.disk = Int(st.st_blocks) * 512
                let landed = row
                failure = fileLock(id).withLock { _ -> Int32 in
                    guard withPath(id, key: key, { rename(temporary, $0) }) == 0 else { return errno }
                    let result = indexed(index) { (i) throws(SQLiteError) in
                        try i.write { (c) throws(SQLiteError) in
                            try c.putRow(id, key: key, landed, data: nil)
                            return try keepLimits(c, index, sparing: id)
                        }
                    }
                    switch result {
                    case .success(let kept):
                        (outcome.evicted, outcome.overLimit, outcome.needsCompaction) = kept
                        return 0
                    case .failure(let error):
                        // No row, no entry: the file goes too (the index is the truth).
                        withPath(id, key: key) { _ = unlink($0) }
                        return error.errnoValue
                    }
                }
            }
            if failure != 0 { unlink(temporary) }
            return failure
        }
        if outcome.failure == 0, let stamp {
            // Written here, so checked: its first read skips the CRC pass, and the index.
            rememberVerified(id, stamp)
            rememberHead(id, row, stamp: stamp, at: clock.now().timeIntervalSinceReferenceDate)
        }
        return outcome
    }

    /// Runs `body` with a NUL-terminated temporary path, `<dir>/.magpie-tmp/<pid>-<counter hex>`
    /// (a folder of their own: opening looks for dead writers' leftovers there, not among every
    /// entry).
    func withTemporaryPath<R>(_ counter: UInt64, _ body: (UnsafePointer<CChar>) -> R) -> R {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: pathPrefix.count + 48) { buffer in
            let base = buffer.baseAddress!
            pathPrefix.withUnsafeBufferPointer { base.update(from: $0.baseAddress!, count: $0.count) }
            var at = pathPrefix.count
            for b in (Self.temporaryFolder + "/").utf8 {
                base[at] = b
                at += 1
            }
            func put(_ value: UInt64, radix: UInt64) {
                let digits: StaticString = "0123456789abcdef"
                var v = value
                let start = at
                repeat {
                    base[at] = digits.utf8Start[Int(v % radix)]
                    at += 1
                    v /= radix
                } while v > 0
                // Digits came out least significant first.
                var (i, j) = (start, at - 1)
                while i < j {
                    buffer.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            put(UInt64(pid), radix: 10)
            base[at] = UInt8(ascii: "-")
            at += 1
            put(counter, radix: 16)
            base[at] = 0
            return UnsafeRawPointer(base).withMemoryRebound(to: CChar.self, capacity: at + 1) { body($0) }
        }
    }

    /// Writes header and payload with as few system calls as the kernel allows (writev).
    static func writeAll(_ fd: Int32, _ header: [UInt8], _ payload: [UInt8]) -> Int32 {
        header.withUnsafeBytes { h in
            payload.withUnsafeBytes { p in
                let total = h.count + p.count
                var done = 0
                while done < total {
                    let headerLeft = max(0, h.count - done)
                    let payloadDone = max(0, done - h.count)
                    var iov = (
                        iovec(
                            iov_base: UnsafeMutableRawPointer(
                                mutating: h.baseAddress.map { $0 + (h.count - headerLeft) }),
                            iov_len: headerLeft),
                        iovec(
                            iov_base: UnsafeMutableRawPointer(mutating: p.baseAddress.map { $0 + payloadDone }),
                            iov_len: p.count - payloadDone)
                    )
                    let n = withUnsafeMutablePointer(to: &iov) {
                        $0.withMemoryRebound(to: iovec.self, capacity: 2) { writev(fd, $0, 2) }
                    }
                    if n < 0 && errno == EINTR { continue }
                    if n <= 0 { return n < 0 ? errno : ENOSPC }
                    done += n
                }
                return 0
            }
        }
    }
}
