#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Entries' identities, and a file's identity as a read sees it.
extension DiskCache {
    /// An entry's identity in the index: the MD5 of its key (whether or not files are named by it),
    /// so lookups hash 16 bytes and build no strings.
    struct EntryID: Hashable {
        var hi: UInt64
        var lo: UInt64

        init(key: String) {
            (hi, lo) = Digest.md5Words(key)
        }

        init(hi: UInt64, lo: UInt64) {
            self.hi = hi
            self.lo = lo
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

    /// What an entry's file is (inode, size, modification time), or for a row entry the row's own
    /// write stamp: two different stamps mean the entry was written again in between.
    struct FileStamp: Equatable, Sendable {
        var inode: UInt64
        var size: Int
        var modified: Int
        var modifiedNanoseconds: Int

        init(inode: UInt64, size: Int, modified: Int = 0, modifiedNanoseconds: Int = 0) {
            self.inode = inode
            self.size = size
            self.modified = modified
            self.modifiedNanoseconds = modifiedNanoseconds
        }

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
}
