import Dispatch

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

/// The `file://` transport: reads a local file on the I/O executor (never on Swift's cooperative
/// pool), with the request's body limit. A missing file answers 404 so it fails like a web miss.
public struct FileDataLoader: DataLoading {
    public init() {}

    public func load(_ request: DataRequest, progress: @escaping @Sendable (Int, Int?) -> Void) async throws
        -> DataResponse
    {
        let path = request.url.path(percentEncoded: false)
        let limit = request.maxBodySize
        let result = try await BlockingExecutor.io.run { Self.read(path, limit: limit) }
        switch result {
        case .success(let body):
            progress(body.count, body.count)
            return DataResponse(url: request.url, statusCode: 200, body: body)
        case .failure(.fileUnreadable(_, let e)) where e == ENOENT || e == ENOTDIR:
            return DataResponse(url: request.url, statusCode: 404)
        case .failure(let error):
            throw error
        }
    }

    static func read(_ path: String, limit: Int) -> Result<[UInt8], ImageDownloadError> {
        // O_NONBLOCK: a FIFO without a writer (or a device) must not hang the open; anything
        // but a regular file is refused before the first read.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { return .failure(.fileUnreadable(path: path, errno: errno)) }
        defer { close(fd) }
        return readOpened(fd, path: path, limit: limit).map(\.bytes)
    }

    /// An opened file's bytes when it is a regular file within `limit`, with its modification
    /// time in nanoseconds (the `local://` transport's validators).
    static func readOpened(_ fd: Int32, path: String, limit: Int)
        -> Result<(bytes: [UInt8], modified: Int), ImageDownloadError>
    {
        var st = stat()
        guard fstat(fd, &st) == 0 else { return .failure(.fileUnreadable(path: path, errno: errno)) }
        guard (st.st_mode & S_IFMT) == S_IFREG else { return .failure(.fileUnreadable(path: path, errno: EISDIR)) }
        let size = Int(st.st_size)
        if size > limit { return .failure(.bodyTooLarge(limit: limit, declared: size)) }
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            (count, failure) = FileIO.read(fd, into: UnsafeMutableRawBufferPointer(buffer), at: 0)
        }
        if failure != 0 { return .failure(.fileUnreadable(path: path, errno: failure)) }
        return .success((bytes, Int(st.st_mtim.tv_sec) * 1_000_000_000 + Int(st.st_mtim.tv_nsec)))
    }
}
