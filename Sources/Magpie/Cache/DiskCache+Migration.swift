#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A folder an earlier version wrote (entry files, no index), or whose index was damaged: its
/// files are taken into a new index once, when it is opened; and dead writers' leftovers.
extension DiskCache {
    /// Where writers make their temporary files, each `<pid>-<counter>`: a folder of its own, so
    /// opening finds dead writers' leftovers without listing every entry.
    static let temporaryFolder = ".magpie-tmp"

    static func makeTemporaryFolder(_ dir: String) {
        mkdir(dir + "/" + temporaryFolder, 0o700)
    }

    /// Makes the temporary folder and removes the files in it whose writer is gone (the pid in
    /// its name names no process). Returns how many went.
    static func removeLeftovers(_ dir: String) -> Int {
        makeTemporaryFolder(dir)
        let folder = dir + "/" + temporaryFolder
        var st = stat()
        guard lstat(folder, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR, st.st_uid == geteuid() else { return 0 }
        let dirfd = open(folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard dirfd >= 0 else { return 0 }
        defer { close(dirfd) }
        var removed = 0
        for name in entryNames(folder) where isDeadWriters(name) {
            if unlinkat(dirfd, name, 0) == 0 { removed += 1 }
        }
        return removed
    }

    /// Whether a temporary file's name (`<pid>-…`, or an earlier version's `.tmp-<pid>-…`) names
    /// a process that no longer runs.
    static func isDeadWriters(_ name: String) -> Bool {
        let bare = name.hasPrefix(".tmp-") ? name.dropFirst(5) : Substring(name)
        let pid = bare.split(separator: "-").first.flatMap { Int32($0) } ?? 0
        return pid <= 0 || (kill(pid, 0) != 0 && errno == ESRCH)
    }

    /// Indexes the entry files of `dir` into a new index: each valid one gets a row (as a file;
    /// a small one becomes a row when it is first read), invalid ones and dead writers' leftovers
    /// of earlier versions (`.tmp-…`) are removed; foreign files, links and folders are left
    /// alone. Marks the index as having taken them in.
    static func importFiles(_ dir: String, config: Config, into index: CacheIndex) -> (
        leftovers: Int, invalid: Int, imported: Int
    ) {
        var leftovers = 0
        var invalid = 0
        var imported = 0
        let dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard dirfd >= 0 else { return (0, 0, 0) }
        defer { close(dirfd) }
        var batch: [(EntryID, String?, IndexRow)] = []
        func flush() {
            guard !batch.isEmpty else { return }
            let rows = batch
            batch.removeAll(keepingCapacity: true)
            _ = try? index.write { (c) throws(SQLiteError) in
                for (id, key, row) in rows where try c.rowHead(id) == nil {
                    try c.putRow(id, key: key, row, data: nil)
                    imported += 1
                }
            }
        }
        for name in entryNames(dir) {
            if name.hasPrefix(".tmp-") {
                if isDeadWriters(name) && isOwnFile(dir, name, dirfd: dirfd) && unlinkat(dirfd, name, 0) == 0 {
                    leftovers += 1
                }
                continue
            }
            guard looksLikeEntryName(name, config: config) else { continue }
            // O_NONBLOCK: a FIFO planted under an entry's name must not hang the open.
            let fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
            if fd < 0 { continue }
            var st = stat()
            let statted = fstat(fd, &st) == 0
            let parsed = statted ? readHeader(fd) : nil
            close(fd)
            // An entry must sit under the name its own key gives it, within the size cap.
            let id = parsed.map { EntryID(key: $0.info.key) }
            guard let parsed, let id, expectedName(id, key: parsed.info.key, config: config) == name,
                parsed.headerSize + parsed.info.size <= config.entryCap
            else {
                if isOwnFile(dir, name, dirfd: dirfd, requiringMagic: !config.usesHashedFileName)
                    && unlinkat(dirfd, name, 0) == 0
                {
                    invalid += 1
                }
                continue
            }
            let row = IndexRow(
                isFile: true, size: parsed.headerSize + parsed.info.size,
                disk: Int(st.st_blocks) * 512, expiresAt: parsed.info.expiresAt,
                lastAccess: parsed.info.lastAccess, freshUntil: parsed.info.freshness.freshUntil,
                inode: UInt64(st.st_ino), headerSize: parsed.headerSize)
            batch.append((id, config.usesHashedFileName ? nil : parsed.info.key, row))
            if batch.count >= 500 { flush() }
        }
        flush()
        _ = try? index.write { (c) throws(SQLiteError) in try c.setMeta("imported", 1) }
        return (leftovers, invalid, imported)
    }

    /// The file name of the entry with `id` and `key`, from the ID's digest (no second hash).
    static func expectedName(_ id: EntryID, key: String, config: Config) -> String {
        let suffix = config.pathExtension.flatMap { $0.isEmpty ? nil : "." + $0 } ?? ""
        guard config.usesHashedFileName else { return key + suffix }
        return String(unsafeUninitializedCapacity: 32) { buffer in
            id.writeHex(buffer.baseAddress!)
            return 32
        } + suffix
    }
}
