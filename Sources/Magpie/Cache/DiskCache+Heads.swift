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

/// File entries' rows as this process last had them from the index, so that a hit on a large
/// entry reads its file without asking the index again (the store before the index kept every
/// entry in memory; this keeps only the file entries read or written in the last second).
///
/// A head is trusted only while the entry's file is still the one the row was read with: its
/// stamp (inode, size, modification time) is compared before a byte is read. Every change that
/// matters to a read changes the file: a newer write renames a new file into place (a new inode),
/// a removal or a trim unlinks it, a renewal rewrites its header in place (and the header, read
/// with every hit, says the freshness it gave, whether or not the coarse modification time
/// moved). What another process can change in the row alone (an access time, an expiry a read
/// extended) is never older than a second here: a head is asked of the index again after that.
/// A head only ever answers a hit; whatever it would make a miss (expired, stale, changed, gone)
/// goes the whole way through the index, which decides.
extension DiskCache {
    struct FileHead {
        /// The row as the index had it (this process's waiting read is applied on use).
        var row: IndexRow
        /// The digest of the file's stamp when the row was read (see ``FileStamp/digest``).
        var stamp: UInt64
        /// When the row was read from the index (seconds since the reference date).
        var readAt: Double
    }

    /// Heads kept at most (about 100 bytes each).
    static let headLimit = 1024
    /// Seconds a head stands for the index.
    static let headTrust = 1.0

    /// A hit on a file entry from its head, or `nil` when there is no head to trust or the
    /// entry is not plainly a hit by it (the caller then asks the index).
    func headHit(
        _ id: EntryID, key: String, now: Date, extending: ExpirationExtending, allowingStale: Bool
    ) -> Hit? {
        let nowSeconds = now.timeIntervalSinceReferenceDate
        guard let head = trustedHead(id, at: nowSeconds) else { return nil }
        let row = withPendingTouch(head.row, id)
        guard row.expiresAt > nowSeconds, allowingStale || row.freshUntil > nowSeconds else { return nil }
        let unhashedKey = config.usesHashedFileName ? nil : key
        let read = withPath(id, key: unhashedKey) { path -> FileRead? in
            guard case .opened(let fd, let stamp) = openEntryFile(path) else { return nil }
            defer { close(fd) }
            guard stamp.digest == head.stamp else { return nil }
            return readOpened(fd, stamp: stamp, id: id, key: key, headerSize: row.headerSize)
        }
        guard case .hit(let payload, let facts, _) = read,
            allowingStale || facts.freshness.isFresh(at: nowSeconds)
        else {
            forgetFile(id)
            return nil
        }
        let expires = touch(id, row, stored: head.row, facts: facts, now: now, extending: extending)
        return Hit(
            payload: payload, expiresAt: expires, freshness: facts.freshness,
            isStale: !facts.freshness.isFresh(at: nowSeconds), metadata: facts.metadata)
    }

    func trustedHead(_ id: EntryID, at now: Double) -> FileHead? {
        fileHeads.withLock { heads in
            guard !heads.isEmpty, let head = heads[id] else { return nil }
            guard now - head.readAt < Self.headTrust, now >= head.readAt else {
                heads[id] = nil
                return nil
            }
            return head
        }
    }

    /// Keeps the file entry's row `row`, read from (or written to) the index at `now`, with the
    /// stamp of the file it names.
    func rememberHead(_ id: EntryID, _ row: IndexRow, stamp: FileStamp, at now: Double) {
        guard row.isFile, row.inode == stamp.inode else { return }
        let head = FileHead(row: row, stamp: stamp.digest, readAt: now)
        fileHeads.withLock { heads in
            if heads.count >= Self.headLimit && heads[id] == nil {
                heads = heads.filter { now - $0.value.readAt < Self.headTrust && now >= $0.value.readAt }
                if heads.count >= Self.headLimit { heads.removeAll(keepingCapacity: true) }
            }
            heads[id] = head
        }
    }

    /// Forgets what this process knows of `id`'s file (its head, and that its payload passed the
    /// check): the file changed or went.
    func forgetFile(_ id: EntryID) {
        _ = verifiedFiles.withLock { $0.removeValue(forKey: id) }
        _ = fileHeads.withLock { $0.removeValue(forKey: id) }
    }

    /// Forgets every file's head and check (the folder was emptied or made again).
    func forgetAllFiles() {
        verifiedFiles.withLock { $0.removeAll() }
        fileHeads.withLock { $0.removeAll() }
    }
}
