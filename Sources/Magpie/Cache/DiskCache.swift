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

/// A disk cache of byte payloads: one file per entry, named by the MD5 of its key, with the key,
/// expiry, last access and HTTP validators kept in the file's own header (never file times).
///
/// Writes go to a temporary file and are renamed into place, so a reader never sees a partial
/// entry and a crash loses at most the entries in flight. Opening the directory removes leftovers
/// of dead writers and entries that fail validation. The size limit holds at every write: the
/// directory exceeds it by at most the entry being written, and then a background trim removes the
/// least recently accessed entries down to half the limit. Calls block on file I/O: call them from
/// your own threads or through ``ImageCache``-style wrappers, not from the cooperative pool in a
/// tight loop.
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
    /// The size of the folder as every process writing to it counts it (`.magpie-size`, under
    /// `flock`); `nil` without a size limit or when read-only.
    let shared: SharedSizeRecord?
    /// What opening found: temporary files of dead writers removed, and invalid entries removed.
    public let openingReport: (leftoversRemoved: Int, invalidRemoved: Int)
    let state: Locked<State>
    let counters = Locked<(invalid: Int, recreations: Int)>((0, 0))
    let clock: any CacheClock
    /// Background trims in flight (run on the I/O executor; waited for by `waitForBackgroundWork()`).
    let background: DispatchGroup
    let sweeper = Locked<PeriodicSweep?>(nil)
    /// Names temporary files uniquely within this process (the pid makes them unique across).
    let temporaryCounter = Locked<UInt64>(UInt64.random(in: 0...UInt64.max >> 8))
    /// The directory and a slash, and the file-name suffix ("" or "." + extension), as bytes.
    let pathPrefix: [UInt8]
    let nameSuffix: [UInt8]
    let pid = getpid()
    /// Locks over entry files by ID (striped): a write holds its entry's lock while it renames
    /// its file into place and indexes it, and a removal while it checks that the entry is still
    /// the one it chose and deletes the file. So a trim, an expiry sweep or a read that found a
    /// bad file never deletes a newer write of the same key. Taken before `state`, never inside it.
    /// (The locked value is unused; ThreadSanitizer misreads accesses to an empty one.)
    let fileLocks = (0..<64).map { _ in Locked(0) }
    /// Runs once in each removal of several entries, after they are chosen and before their files
    /// go (tests use it to write in that window).
    let removalHook = Locked<(@Sendable () -> Void)?>(nil)
    /// Runs in a cross-process trim after it read the shared total and before it lists the
    /// folder (tests use it to remove or write in that window).
    let rescanHook = Locked<(@Sendable () -> Void)?>(nil)

    /// Opens (creating if needed, mode 0700, with its marker file) the cache directory and
    /// indexes its entries.
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
        let (state, report) = Self.scan(dir, config: config, maxEntrySize: config.entryCap)
        self.shared = isReadOnly || config.sizeLimit <= 0 ? nil : SharedSizeRecord(directory: dir)
        shared?.openedWith(total: state.totalSize)
        self.state = Locked(state)
        self.openingReport = report
        if let interval = config.sweepInterval, interval > .zero {
            let sweep = PeriodicSweep(every: interval, on: self) { _ = $0.removeExpiredValues() }
            sweeper.withLock { $0 = sweep }
        }
    }

    /// The header facts of the entry for `key` (key, size, expiry, last access, validators),
    /// without reading its payload or changing its access time.
    public func entryInfo(forKey key: String) -> DiskEntryInfo? {
        guard let id = try? checkedID(key) else { return nil }
        let fd = withPath(id, key: config.usesHashedFileName ? nil : key) {
            open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
        }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return Self.readHeader(fd)?.info
    }

    /// Whether an unexpired entry for `key` that is fresh (see ``EntryFreshness``; a stale one
    /// kept for a revalidation does not count) is on disk: the index says so and the file is
    /// still there (one `fstatat`, no read). A file another process or a person removed, or a
    /// folder deleted whole, is no longer claimed, and is dropped from the index.
    /// ``isCachedFromIndex(forKey:)`` skips the file system.
    public func isCached(forKey key: String) -> Bool {
        guard isCachedFromIndex(forKey: key), let id = try? checkedID(key) else { return false }
        let unhashedKey = config.usesHashedFileName ? nil : key
        var st = stat()
        if withPath(id, key: unhashedKey, { fstatat(AT_FDCWD, $0, &st, AT_SYMLINK_NOFOLLOW) }) == 0,
            (st.st_mode & S_IFMT) == S_IFREG
        {
            return true
        }
        discard(id, key: unhashedKey, seen: state.withLock { $0.index[id]?.generation }, unlinking: false)
        return false
    }

    /// The fast answer of ``isCached(forKey:)``: what this process's index says, without a
    /// system call. A file removed behind the cache's back still counts until a read (or
    /// ``isCached(forKey:)``) finds it gone.
    public func isCachedFromIndex(forKey key: String) -> Bool {
        let id = EntryID(key: key)
        let now = clock.now().timeIntervalSinceReferenceDate
        return state.withLock { s in
            guard let e = s.index[id] else { return false }
            return e.expiresAt > now && e.freshUntil > now
        }
    }

    /// Makes the folder again after it vanished (mode 0700, marker) and forgets the index, whose
    /// files went with it. Returns whether the folder is usable again.
    func recreateDirectory() -> Bool {
        guard (try? Self.prepareDirectory(directory)) == true else { return false }
        shared?.reopen()
        state.withLock { s in
            s.index.removeAll()
            s.keys.removeAll()
            s.totalSize = 0
        }
        counters.withLock { $0.recreations += 1 }
        return true
    }

    /// Times the folder was found gone and made again.
    public var directoryRecreations: Int { counters.withLock { $0.recreations } }

    /// Bytes the entry files take (headers included).
    public func totalSize() -> Int { state.withLock { $0.totalSize } }
    /// Entries indexed.
    public var count: Int { state.withLock { $0.index.count } }
    /// Entries removed because they failed validation since opening (open-time ones included).
    public var invalidEntriesRemoved: Int { counters.withLock { $0.invalid } + openingReport.invalidRemoved }

}
