#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reading an entry file's bytes: its header, header and payload in one call, whole ranges.
extension DiskCache {
    /// Reads the header and the payload after it with one system call; returns the bytes read.
    static func readTwo(_ fd: Int32, _ a: UnsafeMutableRawBufferPointer, _ b: UnsafeMutableRawBufferPointer) -> Int {
        var iov = (iovec(iov_base: a.baseAddress, iov_len: a.count), iovec(iov_base: b.baseAddress, iov_len: b.count))
        let n = withUnsafeMutablePointer(to: &iov) {
            $0.withMemoryRebound(to: iovec.self, capacity: 2) { preadv(fd, $0, 2, 0) }
        }
        if n == a.count + b.count || n <= 0 { return max(0, n) }
        // Short read: plain reads for the rest.
        let rest = readAll(
            fd, UnsafeMutableRawBufferPointer(rebasing: b[max(0, n - a.count)...]), at: off_t(max(n, a.count)))
        return n + rest
    }

    static func readHeader(_ fd: Int32) -> DiskEntryFormat.Parsed? {
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        let fileSize = Int(st.st_size)
        var head = [UInt8](repeating: 0, count: min(fileSize, 4096))
        var got = head.withUnsafeMutableBytes { readAll(fd, $0, at: 0) }
        guard got >= DiskEntryFormat.minimumFixedSize else { return nil }
        let declared = Int(head.withUnsafeBytes { DiskEntryFormat.read16($0, 6) })
        if declared > head.count && declared <= min(fileSize, DiskEntryFormat.maxHeaderSize) {
            head = [UInt8](repeating: 0, count: declared)
            got = head.withUnsafeMutableBytes { readAll(fd, $0, at: 0) }
            guard got == declared else { return nil }
        }
        return DiskEntryFormat.parse(Array(head[..<got]), fileSize: fileSize)
    }

    static func readAll(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer, at offset: off_t) -> Int {
        FileIO.read(fd, into: buffer, at: Int(offset)).count
    }

    static func crc(_ bytes: [UInt8]) -> UInt32 {
        Digest.crc32c(bytes)
    }

    static func seconds(_ date: Date?) -> Double { date?.timeIntervalSinceReferenceDate ?? .infinity }
}
