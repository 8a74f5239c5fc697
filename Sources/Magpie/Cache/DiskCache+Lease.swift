#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Single flight across processes: the processes that share a cache folder take a lease on a
/// key before downloading it, so one downloads while the others wait and then read its entry.
extension DiskCache {
    /// A held lease on a key's download: an exclusive `flock` on `.lease-<md5 of the key>` in the
    /// folder (a dot file the cache never takes for an entry, gone again on release). The kernel
    /// drops it when the process dies, so a crashed holder never blocks the others; a holder that
    /// hangs is waited for at most ``Config/downloadLeaseTimeout``. Within one process the lease
    /// is shared: every holder of the same file counts, and the last release gives it up.
    public final class DownloadLease: Sendable {
        private let path: String
        private let released = Locked(false)

        fileprivate init(path: String) { self.path = path }

        /// Gives this hold up; the last one in the process unlinks the file first (so a waiter
        /// that locks the old file sees it gone and takes a new one), then unlocks. Idempotent.
        public func release() {
            let first = released.withLock { done -> Bool in
                defer { done = true }
                return !done
            }
            if first { LeaseRegistry.release(path) }
        }

        deinit { release() }
    }

    /// What an attempt at a lease found.
    public enum LeaseAttempt: Sendable {
        case acquired(DownloadLease)
        /// Another process holds it.
        case busy
        /// No lease can be had here (a read-only cache, leases turned off, a folder that refuses
        /// the file); go on without one.
        case unavailable
    }

    /// What `key`'s entry is now, whoever wrote it: a row entry's write stamp, or its file's
    /// inode, size and modification time (one `stat`); `nil` when there is none. Two different
    /// stamps mean another process wrote the entry in between.
    func fileStamp(forKey key: String) -> FileStamp? {
        if let row = currentRow(EntryID(key: key)), !row.isFile { return FileStamp(inode: row.inode, size: row.size) }
        var st = stat()
        guard stat(path(forKey: key), &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        return FileStamp(st)
    }

    /// Tries once, without waiting, to take the download lease on `key`.
    public func tryDownloadLease(forKey key: String) -> LeaseAttempt {
        guard !isReadOnly, config.downloadLeaseTimeout != nil else { return .unavailable }
        return LeaseRegistry.acquire(directory + "/.lease-" + CacheKeys.md5Hex(key))
    }
}

/// The leases this process holds, by file: one descriptor and lock for any number of holders.
private enum LeaseRegistry {
    private static let held = Locked<[String: (fd: Int32, holders: Int)]>([:])

    static func acquire(_ path: String) -> DiskCache.LeaseAttempt {
        held.withLock { held in
            if var entry = held[path] {
                entry.holders += 1
                held[path] = entry
                return .acquired(DiskCache.DownloadLease(path: path))
            }
            // A holder that just finished unlinks the file it locked: lock the one at the path.
            for _ in 0..<4 {
                let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
                guard fd >= 0 else { return .unavailable }
                if flock(fd, LOCK_EX | LOCK_NB) != 0 {
                    let busy = errno == EWOULDBLOCK
                    close(fd)
                    return busy ? .busy : .unavailable
                }
                var locked = stat()
                var current = stat()
                if fstat(fd, &locked) == 0, stat(path, &current) == 0, locked.st_ino == current.st_ino,
                    locked.st_dev == current.st_dev
                {
                    held[path] = (fd, 1)
                    return .acquired(DiskCache.DownloadLease(path: path))
                }
                close(fd)
            }
            return .busy
        }
    }

    static func release(_ path: String) {
        held.withLock { held in
            guard var entry = held[path] else { return }
            entry.holders -= 1
            if entry.holders > 0 {
                held[path] = entry
                return
            }
            held[path] = nil
            unlink(path)
            close(entry.fd)
        }
    }
}
