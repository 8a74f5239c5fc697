#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Indexing a cache folder when it is opened.
extension DiskCache {
    /// Indexes a directory: removes dead writers' temporary files and the cache's own entries
    /// that fail validation (or exceed `maxEntrySize`); leaves foreign files, links and folders
    /// alone, unindexed.
    static func scan(_ dir: String, config: Config, maxEntrySize: Int) -> (
        State, (leftoversRemoved: Int, invalidRemoved: Int)
    ) {
        var state = State()
        var leftovers = 0
        var invalid = 0
        let names = entryNames(dir)
        state.index.reserveCapacity(names.count)
        let dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        defer { if dirfd >= 0 { close(dirfd) } }
        guard dirfd >= 0 else { return (state, (0, 0)) }
        for name in names {
            if name.hasPrefix(".tmp-") {
                // ".tmp-<pid>-<counter>": remove when its writer is gone.
                let pid = name.dropFirst(5).split(separator: "-").first.flatMap { Int32($0) } ?? 0
                if (pid <= 0 || (kill(pid, 0) != 0 && errno == ESRCH))
                    && isOwnFile(dir, name, dirfd: dirfd) && unlinkat(dirfd, name, 0) == 0
                {
                    leftovers += 1
                }
                continue
            }
            guard looksLikeEntryName(name, config: config) else { continue }
            // O_NONBLOCK: a FIFO planted under an entry's name must not hang the open.
            let fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
            if fd < 0 { continue }
            let parsed = readHeader(fd)
            close(fd)
            // An entry must sit under the name its own key gives it, within the size cap.
            let id = parsed.map { EntryID(key: $0.info.key) }
            guard let parsed, let id, expectedName(id, key: parsed.info.key, config: config) == name,
                parsed.headerSize + parsed.info.size <= maxEntrySize
            else {
                if isOwnFile(dir, name, dirfd: dirfd, requiringMagic: !config.usesHashedFileName)
                    && unlinkat(dirfd, name, 0) == 0
                {
                    invalid += 1
                }
                continue
            }
            let size = parsed.headerSize + parsed.info.size
            state.index[id] = Entry(
                size: size, expiresAt: parsed.info.expiresAt, lastAccess: parsed.info.lastAccess,
                freshUntil: parsed.info.freshness.freshUntil, headerSize: parsed.headerSize)
            if !config.usesHashedFileName { state.keys[id] = parsed.info.key }
            state.totalSize += size
        }
        return (state, (leftovers, invalid))
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
