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

/// The `local://` transport (imgproxy's `IMGPROXY_LOCAL_FILESYSTEM_ROOT`): `local:///a/b.jpg` is the
/// file `a/b.jpg` beneath `root`, and nothing outside it. The path is walked a component at a time
/// from the root's descriptor with `openat` and `O_NOFOLLOW`, so no symbolic link is followed at all
/// (stricter than `openat2`'s `RESOLVE_BENEATH`, which follows links that stay beneath: a link is
/// a 404 here), and `..`, `.`, empty components, and a `/` or NUL that percent-encoding hides are
/// refused before anything is opened. What is found must be a regular file (FIFOs, devices and
/// folders are refused without blocking) within the request's byte limit. Its `ETag` and
/// `Last-Modified` come from its size and modification time, so a changed file is a new source; a
/// conditional request whose `If-None-Match` matches is a 304. Refusals answer 404, as a missing
/// file does, with no bytes.
public struct LocalRootLoader: DataLoading {
    public let root: String

    public init(root: String) { self.root = root }

    public func load(_ request: DataRequest, progress: @escaping @Sendable (Int, Int?) -> Void) async throws
        -> DataResponse
    {
        guard let components = Self.components(request.url) else {
            return DataResponse(url: request.url, statusCode: 404)
        }
        let (root, limit) = (self.root, request.maxBodySize)
        let result = try await BlockingExecutor.io.run { Self.read(components, beneath: root, limit: limit) }
        switch result {
        case .success(let (body, size, modified)):
            let etag = "\"\(String(size, radix: 16))-\(String(modified, radix: 16))\""
            var headers = [HTTPHeaderField("ETag", etag)]
            headers.append(HTTPHeaderField("Last-Modified", HTTPDate.format(seconds: modified / 1_000_000_000)))
            if request.headers.value(for: "If-None-Match") == etag {
                return DataResponse(url: request.url, statusCode: 304, headers: headers)
            }
            progress(body.count, body.count)
            return DataResponse(url: request.url, statusCode: 200, headers: headers, body: body)
        case .failure(.bodyTooLarge(let limit, let declared)):
            throw ImageDownloadError.bodyTooLarge(limit: limit, declared: declared)
        case .failure(.fileUnreadable(_, let e)) where e == EIO:
            throw ImageDownloadError.fileUnreadable(path: request.url.path(percentEncoded: false), errno: e)
        case .failure:
            return DataResponse(url: request.url, statusCode: 404)
        }
    }

    /// The path's components, each percent-decoded; nil for one that is empty, `.` or `..`, or that
    /// holds a `/` or NUL once decoded, and for a URL with a host (`local://host/…`).
    static func components(_ url: URL) -> [String]? {
        guard url.host(percentEncoded: true)?.isEmpty ?? true else { return nil }
        let path = url.path(percentEncoded: true)
        guard path.hasPrefix("/") else { return nil }
        var out: [String] = []
        for raw in path.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            let bytes = AWSSignatureV4.decoded(raw)
            guard !bytes.isEmpty, !bytes.contains(0), !bytes.contains(0x2F), bytes != [0x2E], bytes != [0x2E, 0x2E]
            else { return nil }
            guard let name = String(validating: bytes, as: UTF8.self) else { return nil }
            out.append(name)
        }
        return out.isEmpty ? nil : out
    }

    /// The file's bytes, size and modification time (nanoseconds), reached without following links.
    static func read(_ components: [String], beneath root: String, limit: Int)
        -> Result<([UInt8], Int, Int), ImageDownloadError>
    {
        let fd: Int32
        switch openBeneath(components, root: root) {
        case .success(let opened): fd = opened
        case .failure(let e): return .failure(e)
        }
        defer { close(fd) }
        // A read error is EIO (a dying disk: thrown); anything else about the file is a 404.
        return FileDataLoader.readOpened(fd, path: components.last!, limit: limit).map {
            ($0.bytes, $0.bytes.count, $0.modified)
        }
        .mapError { error in
            if case .fileUnreadable(let path, let e) = error, e != EISDIR {
                return .fileUnreadable(path: path, errno: EIO)
            }
            return error
        }
    }

    /// What `url` names beneath `root` is now, as a stamp that changes when the file is replaced or
    /// rewritten: its device, inode, size and modification time (`nil`: no such regular file; the
    /// load then answers for it). One walk and an `fstat`, a few microseconds, off the caller's
    /// thread: a cache in front of local files asks it on every hit (a replaced file is a new
    /// source at once, not at the TTL).
    public static func stamp(_ url: URL, beneath root: String) async -> String? {
        guard let components = components(url) else { return nil }
        return try? await BlockingExecutor.io.run { () -> String? in
            guard case .success(let fd) = openBeneath(components, root: root) else { return nil }
            defer { close(fd) }
            var st = stat()
            guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
            let nanos = Int(st.st_mtim.tv_sec) &* 1_000_000_000 &+ Int(st.st_mtim.tv_nsec)
            return "\(st.st_dev):\(st.st_ino):\(st.st_size):\(nanos)"
        }
    }

    /// The file beneath `root`, opened read-only a component at a time without following links.
    private static func openBeneath(_ components: [String], root: String) -> Result<Int32, ImageDownloadError> {
        var dir = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dir >= 0 else { return .failure(.fileUnreadable(path: root, errno: errno)) }
        defer { close(dir) }
        for name in components.dropLast() {
            let next = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard next >= 0 else { return .failure(.fileUnreadable(path: name, errno: errno)) }
            close(dir)
            dir = next
        }
        // O_NONBLOCK: a FIFO without a writer must not hang the open; only a regular file is read.
        let fd = openat(dir, components.last!, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(.fileUnreadable(path: components.last!, errno: errno)) }
        return .success(fd)
    }
}
