import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The folder's size as all the processes writing to it count it: eight bytes in
/// `.magpie-size`, mapped shared into every process that writes, so a write adds its file and a
/// removal subtracts it with one atomic operation on the mapped word. Each rename or unlink and
/// its count happen together under a shared `flock` on the file (``changing(_:)``); a
/// cross-process trim takes it exclusive (with this process's lock too, since `flock` does not
/// order the threads of one process), rescans the folder and corrects the total by the
/// difference it found, which also repairs any drift (a crash between a rename and its count,
/// files deleted by hand). No file can change between the total the rescan starts from and the
/// listing it makes, so a change is never counted twice, or lost.
final class SharedSizeRecord: Sendable {
    static let name = ".magpie-size"
    private let path: String

    private struct Mapping {
        var fd: Int32 = -1
        var counter: UnsafeMutablePointer<Atomic<Int>>?
    }

    /// The mapping, guarded by this process's lock (the counter itself is shared and atomic).
    private let local: Locked<Mapping>

    init?(directory: String) {
        path = directory + "/" + Self.name
        let mapping = Self.map(path)
        guard mapping.counter != nil else { return nil }
        local = Locked(mapping)
    }

    deinit { local.withLock { Self.unmap(&$0) } }

    private static func map(_ path: String) -> Mapping {
        let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0o600)
        guard fd >= 0 else { return Mapping() }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_uid == geteuid(),
            st.st_size >= 8 || ftruncate(fd, 8) == 0,
            let base = mmap(nil, 8, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), base != MAP_FAILED
        else {
            close(fd)
            return Mapping()
        }
        return Mapping(fd: fd, counter: base.bindMemory(to: Atomic<Int>.self, capacity: 1))
    }

    private static func unmap(_ m: inout Mapping) {
        if let counter = m.counter { munmap(UnsafeMutableRawPointer(counter), 8) }
        if m.fd >= 0 { close(m.fd) }
        m = Mapping()
    }

    /// Maps the record again (after the folder was made again: the old file went with it).
    func reopen() {
        local.withLock { m in
            Self.unmap(&m)
            m = Self.map(path)
        }
    }

    /// Runs `body` on the shared total under the file's exclusive lock (one rescan at a time,
    /// whatever the process); what `body` changes is applied as a difference, so writes other
    /// processes count meanwhile are kept.
    func update<R>(_ body: (inout Int) -> R) -> R {
        local.withLock { m in
            guard let counter = m.counter else {
                var total = 0
                return body(&total)
            }
            while flock(m.fd, LOCK_EX) != 0 && errno == EINTR {}
            defer { flock(m.fd, LOCK_UN) }
            let before = max(0, counter.pointee.load(ordering: .acquiring))
            var total = before
            let result = body(&total)
            if total != before { counter.pointee.add(total - before, ordering: .acquiringAndReleasing) }
            return result
        }
    }

    /// Runs `change` (a rename or an unlink of an entry file), then adds the difference in bytes
    /// it returns (negative for removals, 0 when it failed), both under the shared `flock` and
    /// this process's lock, so a rescan in any process sees the file and its count together.
    /// Returns the new total.
    func changing(_ change: () -> Int) -> Int {
        local.withLock { m in
            guard let counter = m.counter else {
                _ = change()
                return 0
            }
            while flock(m.fd, LOCK_SH) != 0 && errno == EINTR {}
            defer { flock(m.fd, LOCK_UN) }
            let delta = change()
            return max(0, counter.pointee.add(delta, ordering: .acquiringAndReleasing).newValue)
        }
    }

    func total() -> Int { local.withLock { m in max(0, m.counter?.pointee.load(ordering: .acquiring) ?? 0) } }

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
            // When the shared total is what this process indexed, no other process wrote here
            // since: its own index is the folder, and the rescan (every header read) is skipped.
            let indexed: Int = state.withLock { $0.totalSize }
            let alone = indexed == total
            var scanned = State()
            if !alone {
                rescanHook.withLock { $0 }?()
                scanned = Self.scan(directory, config: config, maxEntrySize: config.entryCap).0
            }
            if !alone {
                state.withLock { s in
                    for (id, found) in scanned.index {
                        if var known = s.index[id] {
                            // Another process may have rewritten it: the file's size is the truth.
                            guard known.generation <= before, known.size != found.size else { continue }
                            s.totalSize += found.size - known.size
                            known.size = found.size
                            known.headerSize = found.headerSize
                            known.forgetVerification()
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

    /// Runs `change` (a rename or an unlink; it returns the difference in bytes it made) so that
    /// its count in the shared total goes with it (see ``SharedSizeRecord/changing(_:)``);
    /// returns the new shared total, `nil` when the folder keeps none.
    @discardableResult
    func counted(_ change: () -> Int) -> Int? {
        guard let shared else {
            _ = change()
            return nil
        }
        return shared.changing(change)
    }
}
