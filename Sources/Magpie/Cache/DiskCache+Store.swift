#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The index as the folder leaves it: opened, found damaged and made again, found gone with its
/// folder, and what it counts.
extension DiskCache {
    /// What the cache holds and what it takes on disk.
    public struct Statistics: Sendable, Equatable {
        /// Entries, rows and files together.
        public var entries = 0
        /// Bytes of the entries (headers included).
        public var bytes = 0
        /// What the disk gives them: each file's blocks, plus the index's database and its log
        /// (pages free or not; the size limit counts the pages in use, free ones go back at the
        /// next trim).
        public var bytesOnDisk = 0
        /// Entries kept as rows of the index, and as files.
        public var rows = 0
        public var files = 0
        /// The index's share of ``bytesOnDisk``.
        public var indexBytesOnDisk = 0
    }

    /// The entries, their bytes and what they take on disk, as every process sharing the folder
    /// counts them.
    public func statistics() -> Statistics {
        guard let index = currentIndex() else { return Statistics() }
        guard
            case .success(let totals) = indexed(
                index, { (i) throws(SQLiteError) in try i.read { (c) throws(SQLiteError) in try c.totals() } })
        else { return Statistics() }
        let indexBytes = index.bytesOnDisk()
        return Statistics(
            entries: totals.entries, bytes: totals.bytes, bytesOnDisk: totals.fileDisk + indexBytes,
            rows: totals.entries - totals.files, files: totals.files, indexBytesOnDisk: indexBytes)
    }

    /// Bytes on disk as the size limit counts them (see ``Statistics/bytesOnDisk``).
    public func bytesOnDisk() -> Int { statistics().bytesOnDisk }

    static func indexSettings(_ config: Config) -> CacheIndex.Settings {
        // The log is checkpointed every 256 pages (4 MB); a small cache keeps it to a sixteenth of
        // its limit (at least 4 pages), and the size limit sets that much aside for it.
        let page = CacheIndex.pageSize
        let pages = config.sizeLimit > 0 ? max(4, min(256, config.sizeLimit / page / 16)) : 256
        return CacheIndex.Settings(walPages: pages, journalLimit: pages * page)
    }

    /// Opens the folder's index (making it, unless read-only); a damaged one is removed and made
    /// again. A new index takes in the entry files already in the folder (an earlier version's,
    /// or those of a damaged index).
    static func openIndex(_ dir: String, config: Config, readOnly: Bool) -> (
        CacheIndex?, (leftovers: Int, invalid: Int, imported: Int, rebuilt: Bool)
    ) {
        if readOnly {
            guard access(dir + "/" + CacheIndex.fileName, R_OK) == 0 else { return (nil, (0, 0, 0, false)) }
            return (
                (try? CacheIndex(directory: dir, readOnly: true, settings: indexSettings(config))), (0, 0, 0, false)
            )
        }
        var rebuilt = false
        for attempt in 0..<2 {
            do throws(SQLiteError) {
                let index = try CacheIndex(directory: dir, readOnly: false, settings: indexSettings(config))
                let imported = try index.read { (c) throws(SQLiteError) in try c.meta("imported") } != nil
                if imported { return (index, (0, 0, 0, rebuilt)) }
                let report = importFiles(dir, config: config, into: index)
                return (index, (report.leftovers, report.invalid, report.imported, rebuilt))
            } catch {
                // Not a database, a damaged one, one of another format: made again, once.
                if attempt == 0 && (error.isCorrupt || error.code == 14) {
                    CacheIndex.discard(directory: dir, inode: 0)
                    rebuilt = true
                    continue
                }
                return (nil, (0, 0, 0, rebuilt))
            }
        }
        return (nil, (0, 0, 0, rebuilt))
    }

    /// The index in use. With `checkingFile`, first makes sure it is still the folder's (one
    /// `lstat`): when another process made it again, or the folder went and came back, it is
    /// opened again; when the folder is gone, it is dropped (`nil` until the folder is back).
    func currentIndex(checkingFile: Bool = false) -> CacheIndex? {
        let index = indexBox.withLock { $0 }
        guard let index else {
            // Dropped with a vanished folder (or never had: a read-only folder of an earlier
            // version): opened again once the folder is back.
            var st = stat()
            guard !isReadOnly, lstat(directory + "/" + Self.markerName, &st) == 0 else { return nil }
            return reopenIndex(replacing: nil)
        }
        guard checkingFile, !index.isCurrent else { return index }
        var st = stat()
        guard lstat(directory, &st) == 0 else {
            indexBox.withLock { if $0 === index { $0 = nil } }
            return nil
        }
        return reopenIndex(replacing: index)
    }

    /// The row of `id` (without its bytes) with this process's waiting read applied; `nil` when
    /// there is none, or no index (see ``currentIndex(checkingFile:)``).
    func currentRow(_ id: EntryID, checkingFile: Bool = false) -> IndexRow? {
        guard let index = currentIndex(checkingFile: checkingFile),
            case .success(let found) = indexed(
                index, { (i) throws(SQLiteError) in try i.read { (c) throws(SQLiteError) in try c.rowHead(id) } }),
            let stored = found
        else { return nil }
        return withPendingTouch(stored, id)
    }

    /// Opens the index again in place of `old` (unless another thread did already).
    @discardableResult
    func reopenIndex(replacing old: CacheIndex?) -> CacheIndex? {
        indexBox.withLock { box in
            if let box, box !== old { return box }
            let (index, report) = Self.openIndex(directory, config: config, readOnly: isReadOnly)
            counters.withLock {
                $0.migrated += report.imported
                $0.invalid += report.invalid
                if report.rebuilt { $0.indexRebuilds += 1 }
            }
            box = index
            return index
        }
    }

    /// Runs `body` on `index`. A damaged database (SQLite says corrupt or not a database) is
    /// removed and made again, its files indexed anew and its rows lost, and the call answers with
    /// the failure: a read is then a miss, a write fails once.
    func indexed<R>(_ index: CacheIndex, _ body: (CacheIndex) throws(SQLiteError) -> R) -> Result<R, SQLiteError> {
        do throws(SQLiteError) {
            return .success(try body(index))
        } catch {
            if error.isCorrupt {
                indexBox.withLock { box in
                    guard box === index else { return }
                    CacheIndex.discard(directory: directory, inode: index.inode)
                    box = nil
                }
                if reopenIndex(replacing: nil) != nil { counters.withLock { $0.indexRebuilds += 1 } }
            }
            return .failure(error)
        }
    }

    /// Makes the folder again after it vanished (mode 0700, marker) with a new index. Returns
    /// whether the folder is usable again.
    func recreateDirectory() -> Bool {
        guard (try? Self.prepareDirectory(directory)) == true else { return false }
        let old = indexBox.withLock { $0 }
        guard reopenIndex(replacing: old) != nil else { return false }
        forgetAllFiles()
        counters.withLock { $0.recreations += 1 }
        return true
    }
}
