import Magpie

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes an output file through a temporary file in the same directory and a rename, so a
/// reader sees the old file or the whole new one, never a partial one.
struct OutputFile {
    private let fd: Int32
    private let temporaryPath: String

    /// Creates `path` with the bytes `body` writes; on any error the temporary file is removed.
    static func write(to path: String, _ body: (inout OutputFile) throws -> Void) throws {
        let slash = path.lastIndex(of: "/")
        let dir = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array("\(dir.isEmpty ? "/" : dir)/.\(name).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw CLIError("cannot write \(path): \(String(cString: strerror(errno)))") }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var file = OutputFile(fd: fd, temporaryPath: temporary)
        do {
            try body(&file)
            fchmod(fd, 0o644)
            guard close(fd) == 0 else { throw CLIError("cannot write \(path): \(String(cString: strerror(errno)))") }
            guard rename(temporary, path) == 0 else {
                throw CLIError("cannot write \(path): \(String(cString: strerror(errno)))")
            }
        } catch {
            close(fd)
            unlink(temporary)
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
