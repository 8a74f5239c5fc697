#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Positional reads that finish what they start: the one loop over `pread` that retries on
/// `EINTR` and stops at the end of the file or an error.
package enum FileIO {
    /// Reads up to `buffer.count` bytes at `offset`; returns how many came and the `errno` of a
    /// failed read (0 when the file simply ended).
    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> (
        count: Int, error: Int32
    ) {
        var done = 0
        while done < buffer.count {
            let n = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return (done, errno) }
            if n == 0 { break }
            done += n
        }
        return (done, 0)
    }
}
