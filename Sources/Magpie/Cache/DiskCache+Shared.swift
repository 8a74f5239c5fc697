#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The folder's size as all the processes writing to it count it: eight bytes in
/// `.magpie-size`, read and changed under an exclusive `flock` (and a lock of this process, since
/// `flock` does not order the threads of one process). Each write adds its file, each removal
/// subtracts it; a cross-process trim rescans the folder and writes the true total, which also
/// corrects any drift (a crash between a rename and its count, files deleted by hand).
final class SharedSizeRecord: Sendable {
    static let name = ".magpie-size"
    private let fd: Int32
    private let local = Locked(0)

    init?(directory: String) {
        let fd = open(directory + "/" + Self.name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0o600)
        guard fd >= 0 else { return nil }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_uid == geteuid() else {
            close(fd)
            return nil
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Runs `body` on the shared total with both locks held; writes back what it leaves.
    func update<R>(_ body: (inout Int) -> R) -> R {
        local.withLock { _ in
            while flock(fd, LOCK_EX) != 0 && errno == EINTR {}
            defer { flock(fd, LOCK_UN) }
            var raw = Int64(0)
            let got = withUnsafeMutableBytes(of: &raw) { pread(fd, $0.baseAddress, 8, 0) }
            var total = got == 8 ? max(0, Int(Int64(littleEndian: raw))) : 0
            let before = total
            let result = body(&total)
            if total != before || got != 8 {
                var out = Int64(max(0, total)).littleEndian
                _ = withUnsafeBytes(of: &out) { pwrite(fd, $0.baseAddress, 8, 0) }
            }
            return result
        }
    }

    /// Adds `delta` (negative for removals); returns the new total.
    func add(_ delta: Int) -> Int {
        update { total in
            total = max(0, total + delta)
            return total
        }
    }

    func total() -> Int { update { $0 } }

    /// A new record (or an empty one) starts from what this process's scan found.
    func openedWith(total scanned: Int) {
        update { total in if total == 0 { total = scanned } }
    }
}

extension DiskCache {
    /// Evicts across processes: under the shared record's lock (one rescan at a time, whatever
    /// the process), rescans the folder so entries other processes wrote are indexed, removes the
    /// least recently accessed (never `spared`) until the folder holds at most `target` bytes,
    /// and writes the true total. With `threshold`, does nothing unless the shared total exceeds
    /// it. Returns the names removed.
    @discardableResult
    func trimAcrossProcesses(downTo target: Int, over threshold: Int? = nil, sparing spared: EntryID? = nil)
        -> [String]
    {
        guard let shared else { return [] }
        // Under the record's lock: rescan, write the true total, choose the victims. The files go
        // after the lock is released (their removal is counted then), so no entry lock is ever
        // taken inside it.
        let victims = shared.update { total -> [(EntryID, String?, UInt64)] in
            if let threshold, total <= threshold { return [] }
            let before = state.withLock { $0.lastGeneration }
            let (scanned, _) = Self.scan(directory, config: config, maxEntrySize: config.entryCap)
            state.withLock { s in
                for (id, found) in scanned.index {
                    if var known = s.index[id] {
                        // Another process may have rewritten it: the file's size is the truth.
                        guard known.generation <= before, known.size != found.size else { continue }
                        s.totalSize += found.size - known.size
                        known.size = found.size
                        known.headerSize = found.headerSize
                        known.verified = nil
                        s.index[id] = known
                    } else {
                        var entry = found
                        entry.generation = s.nextGeneration()
                        s.index[id] = entry
                        s.totalSize += entry.size
                        if let key = scanned.keys[id] { s.keys[id] = key }
                    }
                }
                // Files another process removed (unless written here since the scan began).
                for (id, known) in s.index where scanned.index[id] == nil && known.generation <= before {
                    s.index[id] = nil
                    s.keys[id] = nil
                    s.totalSize -= known.size
                }
            }
            return state.withLock { s -> [(EntryID, String?, UInt64)] in
                total = s.totalSize
                var left = s.totalSize
                var out: [(EntryID, String?, UInt64)] = []
                for (id, entry) in s.index.sorted(by: { $0.value.lastAccess < $1.value.lastAccess }) where id != spared
                {
                    if left <= target { break }
                    out.append((id, s.keys[id], entry.generation))
                    left -= entry.size
                }
                return out
            }
        }
        return removeFiles(victims)
    }
}
