import Dispatch

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

/// A disk cache of byte payloads, as YYCache's YYDiskCache keeps them: small entries are rows of
/// the folder's SQLite index (`.magpie-index.sqlite`, WAL mode), larger ones files named by the
/// MD5 of their key; the index knows every entry, its bytes on disk, its last access and its
/// expiry, so limits are queries, not walks of the folder.
///
/// Every entry starts with a header holding its key, expiry, validators and a CRC-32C of the
/// payload, checked on every read: a damaged or foreign row or file is never served. Files are
/// written to a temporary file and renamed into place, rows in one transaction, so a reader never
/// sees a partial entry and a crash loses at most the entries in flight. The limits (bytes on disk,
/// entries, the volume's free space) hold after every write: the folder exceeds them by at most
/// the entry being written, and a background trim then removes the least recently accessed
/// entries down to half. Calls block on file I/O: call them from your own threads or through
/// ``ImageCache``-style wrappers, not from the cooperative pool in a tight loop.
public final class DiskCache: Sendable {
    /// The cache directory.
    public let directory: String
    public let config: Config
    /// Whether the folder could not be written when it was opened (a read-only mount, a folder
    /// without write permission): reads work, writes fail with ``DiskCacheError/readOnly(path:)``.
    public let isReadOnly: Bool
    /// The folder's secret for keyed digests of credentials (see `ImageManager.cacheKey`), read
    /// or made the first time a request with credentials needs it.
    var secret: [UInt8] {
        secretBox.withLock { box in
            if let box { return box }
            let loaded = Self.loadSecret(directory, writable: !isReadOnly)
            box = loaded
            return loaded
        }
    }
    let secretBox = Locked<[UInt8]?>(nil)
    /// The index; replaced when the folder or its database is found gone or damaged. `nil` only
    /// for a read-only folder that has none (made by an earlier version): its files are read
    /// directly.
    let indexBox: Locked<CacheIndex?>
    /// What opening found: temporary files of dead writers removed, invalid entries removed.
    public let openingReport: (leftoversRemoved: Int, invalidRemoved: Int)
    let counters = Locked<Counters>(Counters())
    let clock: any CacheClock
    /// Background trims in flight (run on the I/O executor; waited for by `waitForBackgroundWork()`).
    let background: DispatchGroup
    let sweeper = Locked<PeriodicSweep?>(nil)
    /// Whether a background trim is pending, and when the volume's free space was last looked at.
    let trimState = Locked<(scheduled: Bool, freeSpaceCheckedAt: Double)>((false, -.infinity))
    /// Names temporary files uniquely within this process (the pid makes them unique across).
    let temporaryCounter = Locked<UInt64>(UInt64.random(in: 0...UInt64.max >> 8))
    /// The directory and a slash, and the file-name suffix ("" or "." + extension), as bytes.
    let pathPrefix: [UInt8]
    let nameSuffix: [UInt8]
    let pid = getpid()
    /// Locks over entries by ID (striped): a write holds its entry's lock while it renames its
    /// file into place and writes its row, and a removal while it deletes the row and the file.
    /// So within a process a trim, a sweep or a read that found a bad file never deletes a newer
    /// write of the same key (across processes, the file's inode is checked before it goes).
    /// Taken before the index's writer, never inside it.
    /// (The locked value is unused; ThreadSanitizer misreads accesses to an empty one.)
    let fileLocks = (0..<64).map { _ in Locked(0) }
    /// File entries whose payload passed its CRC check in this process, by the file's stamp
    /// digest: a read of the same inode, size and modification time skips the check. Bounded.
    let verifiedFiles = Locked<[EntryID: UInt64]>([:])
    /// File entries' rows read or written in the last second, so their hits skip the index (see
    /// ``headHit(_:key:now:extending:allowingStale:)``). Bounded.
    let fileHeads = Locked<[EntryID: FileHead]>([:])
    /// Reads' times not yet written to the index, by entry (see ``flushTouches()``).
    let pendingTouches = Locked<PendingTouches>(PendingTouches())
    /// Runs once in each removal of several entries, after they are chosen and before they go
    /// (tests use it to write in that window).
    let removalHook = Locked<(@Sendable () -> Void)?>(nil)

    struct Counters {
        var invalid = 0
        var recreations = 0
        var indexRebuilds = 0
        var migrated = 0
    }

    /// Opens (creating if needed, mode 0700, with its marker file) the cache directory and its
    /// index. A folder written by an earlier version (files only) is indexed the first time.
    /// - Throws: ``DiskCacheError/noDirectory``, ``DiskCacheError/cannotCreateDirectory(path:errno:)``,
    ///   ``DiskCacheError/notADirectory(path:)``, ``DiskCacheError/notACacheDirectory(path:)`` (a
    ///   folder with files and no marker) or ``DiskCacheError/insecureDirectory(path:reason:)`` (a
    ///   link, another user's folder, or one that group or others may write to).
    public init(config: Config = Config(), clock: any CacheClock = SystemCacheClock()) throws(DiskCacheError) {
        self.config = config
        self.clock = clock
        guard let dir = config.resolvedDirectory else { throw .noDirectory }
        self.directory = dir
        self.pathPrefix = Array((dir + "/").utf8)
        self.nameSuffix = config.pathExtension.flatMap { $0.isEmpty ? nil : Array(("." + $0).utf8) } ?? []
        self.isReadOnly = !(try Self.prepareDirectory(dir))
        self.background = DispatchGroup()
        let leftovers = isReadOnly ? 0 : Self.removeLeftovers(dir)
        let (index, report) = Self.openIndex(dir, config: config, readOnly: isReadOnly)
        self.indexBox = Locked(index)
        self.openingReport = (leftovers + report.leftovers, report.invalid)
        counters.withLock {
            $0.migrated = report.imported
            $0.indexRebuilds = report.rebuilt ? 1 : 0
        }
        if let interval = config.sweepInterval, interval > .zero {
            let sweep = PeriodicSweep(every: interval, on: self) { cache in
                _ = cache.removeExpiredValues()
                _ = cache.removeSizeExceededValues()
            }
            sweeper.withLock { $0 = sweep }
        }
    }

    /// Reads' times still waiting go to the index (they keep the access order for the next
    /// process).
    deinit { flushTouches() }

    /// The header facts of the entry for `key` (key, size, expiry, last access, validators),
    /// without reading its payload or changing its access time.
    public func entryInfo(forKey key: String) -> DiskEntryInfo? {
        guard let id = try? checkedID(key) else { return nil }
        let unhashedKey = config.usesHashedFileName ? nil : key
        var rowFacts: (IndexRow, DiskEntryFormat.Parsed?)?
        if let index = currentIndex() {
            let looked = indexed(index) { (i) throws(SQLiteError) in
                try i.read { (c) throws(SQLiteError) in
                    try c.row(id) { row, data in
                        (
                            row,
                            data.flatMap {
                                DiskEntryFormat.parse(
                                    Array($0.prefix(DiskEntryFormat.maxHeaderSize)), fileSize: $0.count)
                            }
                        )
                    }
                }
            }
            guard case .success(let found) = looked else { return nil }
            rowFacts = found
            if let found, !found.0.isFile {
                guard var info = found.1?.info, info.key == key else { return nil }
                info.expiresAt = found.0.expiresAt
                info.lastAccess = found.0.lastAccess
                return info
            }
        }
        let fd = withPath(id, key: unhashedKey) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard var info = Self.readHeader(fd)?.info, info.key == key else { return nil }
        if let row = rowFacts?.0 {
            info.expiresAt = row.expiresAt
            info.lastAccess = row.lastAccess
        }
        return info
    }

    /// Whether an unexpired entry for `key` that is fresh (see ``EntryFreshness``; a stale one
    /// kept for a revalidation does not count) is in the cache: its row says so, and a file entry's
    /// file is still there (one `fstatat`, no read). A file another process or a person removed,
    /// or a folder deleted whole, is no longer claimed, and is dropped from the index.
    /// ``isCachedFromIndex(forKey:)`` skips the file system.
    public func isCached(forKey key: String) -> Bool {
        guard let id = try? checkedID(key), let row = currentRow(id, checkingFile: true) else { return false }
        let now = clock.now().timeIntervalSinceReferenceDate
        guard row.expiresAt > now, row.freshUntil > now else { return false }
        guard row.isFile else { return true }
        let unhashedKey = config.usesHashedFileName ? nil : key
        var st = stat()
        if withPath(id, key: unhashedKey, { fstatat(AT_FDCWD, $0, &st, AT_SYMLINK_NOFOLLOW) }) == 0,
            (st.st_mode & S_IFMT) == S_IFREG
        {
            return true
        }
        if (st.st_mode & S_IFMT) != S_IFREG || errno == ENOENT {
            discard(id, key: unhashedKey, row: row, unlinking: false)
        }
        return false
    }

    /// The fast answer of ``isCached(forKey:)``: what the index says, without looking at the
    /// entry's file. A file removed behind the cache's back still counts until a read (or
    /// ``isCached(forKey:)``) finds it gone.
    public func isCachedFromIndex(forKey key: String) -> Bool {
        guard let row = currentRow(EntryID(key: key)) else { return false }
        let now = clock.now().timeIntervalSinceReferenceDate
        return row.expiresAt > now && row.freshUntil > now
    }

    /// Times the folder was found gone and made again.
    public var directoryRecreations: Int { counters.withLock { $0.recreations } }
    /// Times the index was found damaged and made again (its row entries lost, its files kept).
    public var indexRebuilds: Int { counters.withLock { $0.indexRebuilds } }
    /// Entries of an earlier version's folder (files without rows) taken into the index.
    public var migratedEntries: Int { counters.withLock { $0.migrated } }

    /// Bytes the entries take (headers included), rows and files.
    public func totalSize() -> Int { statistics().bytes }
    /// Entries indexed.
    public var count: Int { statistics().entries }
    /// Entries removed because they failed validation since opening (open-time ones included).
    public var invalidEntriesRemoved: Int { counters.withLock { $0.invalid } + openingReport.invalidRemoved }
}
