#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The in-memory index of entries: identities, what is known of each file, and the totals.
extension DiskCache {
    /// An entry's identity in the index: the MD5 of its key (whether or not files are named by it),
    /// so lookups hash 16 bytes and build no strings.
    struct EntryID: Hashable {
        var hi: UInt64
        var lo: UInt64

        init(key: String) {
            (hi, lo) = Digest.md5Words(key)
        }

        func hash(into hasher: inout Hasher) { hasher.combine(lo) }

        /// Writes the 32 lowercase hex digits of the digest (the hashed file name) at `out`.
        func writeHex(_ out: UnsafeMutablePointer<UInt8>) {
            let digits: StaticString = "0123456789abcdef"
            var digest = (hi, lo)
            withUnsafeBytes(of: &digest) { d in
                for i in 0..<16 {
                    out[2 * i] = digits.utf8Start[Int(d[i] >> 4)]
                    out[2 * i + 1] = digits.utf8Start[Int(d[i] & 15)]
                }
            }
        }
    }

    /// What the index knows of an entry: plain values only, so copying one retains nothing.
    struct Entry {
        var size: Int  // file bytes
        var expiresAt: Double
        var lastAccess: Double
        /// The origin's freshness (`.infinity` when it gave none): past it, the entry is stale.
        var freshUntil: Double = .infinity
        var headerSize = 0
        /// The file's identity when its payload last passed the CRC check in this process: a
        /// read of the same inode, size and modification time skips the check.
        var verified: FileStamp?
        /// Which write of this process put the entry in the index (0: found on disk). A removal
        /// or a read that looked at one generation leaves a later one alone.
        var generation: UInt64 = 0
    }

    struct FileStamp: Equatable {
        var inode: UInt64
        var size: Int
        var modified: Int
        var modifiedNanoseconds: Int

        init(_ st: stat) {
            inode = UInt64(st.st_ino)
            size = Int(st.st_size)
            modified = Int(st.st_mtim.tv_sec)
            modifiedNanoseconds = Int(st.st_mtim.tv_nsec)
        }
    }

    struct State {
        var index: [EntryID: Entry] = [:]
        /// The keys of indexed entries, kept only when files are named by their keys (not hashed).
        var keys: [EntryID: String] = [:]
        var totalSize = 0
        var trimScheduled = false
        var lastGeneration: UInt64 = 0

        /// A generation no entry has had.
        mutating func nextGeneration() -> UInt64 {
            lastGeneration += 1
            return lastGeneration
        }
    }
}
