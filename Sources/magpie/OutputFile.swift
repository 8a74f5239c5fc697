import Magpie

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes an output file through a temporary file in the same directory and a rename, so a
/// reader sees the old file or the whole new one, never a partial one. Files are created
/// relative to a descriptor of their directory (`openat`, `O_NOFOLLOW`), with the mode the
/// umask gives, or the mode of the file they replace.
struct OutputFile {
    private let fd: Int32

    /// Creates `path` with the bytes `body` writes; on any error the temporary file is removed.
    static func write(to path: String, _ body: (inout OutputFile) throws -> Void) throws {
        let slash = path.lastIndex(of: "/")
        let dir = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let dirfd = open(dir.isEmpty ? "/" : dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dirfd >= 0 else { throw CLIError("cannot write \(path): \(String(cString: strerror(errno)))") }
        defer { close(dirfd) }
        try write(in: dirfd, name: name, shownAs: path, body)
    }

    /// Creates the file `name` (one path component) in the directory open as `dirfd`.
    static func write(in dirfd: Int32, name: String, shownAs shown: String, _ body: (inout OutputFile) throws -> Void)
        throws
    {
        func failure(_ e: Int32) -> CLIError { CLIError("cannot write \(shown): \(String(cString: strerror(e)))") }
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/") else { throw failure(EINVAL) }
        // The mode of the file replaced, if it is one; else what the umask leaves of 0666.
        var existing = stat()
        let keptMode: mode_t? =
            fstatat(dirfd, name, &existing, AT_SYMLINK_NOFOLLOW) == 0 && (existing.st_mode & S_IFMT) == S_IFREG
            ? existing.st_mode & 0o7777 : nil
        var temporary = ""
        var fd: Int32 = -1
        for _ in 0..<100 {
            temporary = ".\(name.prefix(64)).\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
            fd = openat(dirfd, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw failure(errno) }
        var file = OutputFile(fd: fd)
        do {
            try body(&file)
            if let keptMode { fchmod(fd, keptMode) }
            guard close(fd) == 0 else {
                fd = -1
                throw failure(errno)
            }
            fd = -1
            guard renameat(dirfd, temporary, dirfd, name) == 0 else { throw failure(errno) }
        } catch {
            if fd >= 0 { close(fd) }
            unlinkat(dirfd, temporary, 0)
            throw error
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw CLIError("cannot write: \(String(cString: strerror(errno)))") }
            offset += n
        }
    }

    func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Binary PPM (P6): RGB from the first frame, converted in 1 MiB pieces.
    func writePPM(_ image: Image) throws {
        try write(Array("P6\n\(image.width) \(image.height)\n255\n".utf8))
        let pixelsPerChunk = 1 << 18
        var chunk = [UInt8](repeating: 0, count: pixelsPerChunk * 3)
        let count = image.width * image.height
        try image.pixels.withUnsafeBufferPointer { src in
            var start = 0
            while start < count {
                let n = min(pixelsPerChunk, count - start)
                chunk.withUnsafeMutableBufferPointer { out in
                    for p in 0..<n {
                        let s = 4 * (start + p)
                        out[3 * p] = src[s]
                        out[3 * p + 1] = src[s + 1]
                        out[3 * p + 2] = src[s + 2]
                    }
                }
                try chunk.withUnsafeBytes { try write(UnsafeRawBufferPointer(rebasing: $0[0..<n * 3])) }
                start += n
            }
        }
    }
}
