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

    /// What the index knows of an entry: plain values only, so copying one retains nothing. 48
    /// bytes, 64 with its ID in the index's table (104 before sizes took 32 bits and the stamp a
    /// digest): a million entries fill a table of 2^21 buckets, 134 MB, where it took 218.
    struct Entry {
        private var fileSize: UInt32  // file bytes; no entry exceeds `Config.entryCap`, at most 4 GiB
        private var headerBytes: UInt32
        var expiresAt: Double
        var lastAccess: Double
        /// The origin's freshness (`.infinity` when it gave none): past it, the entry is stale.
        var freshUntil: Double
        /// A digest of the file's identity (``FileStamp/digest``) when its payload last passed the
        /// CRC check in this process, 0 for none: a read of the same inode, size and modification
        /// time skips the check.
        private var verifiedDigest: UInt64
        /// Which write of this process put the entry in the index (0: found on disk). A removal
        /// or a read that looked at one generation leaves a later one alone.
        var generation: UInt64

        init(
            size: Int, expiresAt: Double, lastAccess: Double, freshUntil: Double = .infinity, headerSize: Int = 0,
            verified: FileStamp? = nil, generation: UInt64 = 0
        ) {
            fileSize = UInt32(clamping: size)
            headerBytes = UInt32(clamping: headerSize)
            self.expiresAt = expiresAt
            self.lastAccess = lastAccess
            self.freshUntil = freshUntil
            verifiedDigest = verified?.digest ?? 0
            self.generation = generation
        }

        var size: Int {
            get { Int(fileSize) }
            set { fileSize = UInt32(clamping: newValue) }
        }

        var headerSize: Int {
            get { Int(headerBytes) }
            set { headerBytes = UInt32(clamping: newValue) }
        }

        /// Whether this process checked the payload of the very file `stamp` describes.
        func wasVerified(as stamp: FileStamp) -> Bool { verifiedDigest != 0 && verifiedDigest == stamp.digest }

        /// The file changed under the index: its next read checks the payload again.
        mutating func forgetVerification() { verifiedDigest = 0 }
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

        /// The stamp in 64 bits, never 0, hashed with the process's random seed: no one can choose
        /// a different file's stamp to give the digest of a checked one.
        var digest: UInt64 {
            var hasher = Hasher()
            hasher.combine(inode)
            hasher.combine(size)
            hasher.combine(modified)
            hasher.combine(modifiedNanoseconds)
            let value = UInt64(bitPattern: Int64(hasher.finalize()))
            return value == 0 ? 1 : value
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
