#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a disk-cache operation failed. The cache stays usable after any of them.
public enum DiskCacheError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The cache directory could not be created or opened.
    case cannotCreateDirectory(path: String, errno: Int32)
    /// Something other than a directory is in the way of the cache directory.
    case notADirectory(path: String)
    /// Writing an entry failed: no space (ENOSPC), over the file-size limit (EFBIG), no
    /// permission (EACCES), a name too long (ENAMETOOLONG), a directory in the way (EISDIR)….
    case writeFailed(path: String, errno: Int32)
    /// Reading an entry failed for a reason other than its absence.
    case readFailed(path: String, errno: Int32)
    /// The key cannot name a file (only without hashed file names: empty, "/", "." or "..").
    case invalidKey(String)
    /// The entry alone is larger than the cache's size limit.
    case entryTooLarge(size: Int, limit: Int)

    public var description: String {
        func reason(_ e: Int32) -> String { String(cString: strerror(e)) }
        switch self {
        case .cannotCreateDirectory(let path, let e): return "cannot create cache directory \(path): \(reason(e))"
        case .notADirectory(let path): return "cache path \(path) is not a directory"
        case .writeFailed(let path, let e): return "cannot write \(path): \(reason(e))"
        case .readFailed(let path, let e): return "cannot read \(path): \(reason(e))"
        case .invalidKey(let key): return "key \"\(key)\" cannot be used as a file name"
        case .entryTooLarge(let size, let limit): return "entry of \(size) bytes is larger than the \(limit)-byte cache"
        }
    }

    /// The system error number, when there is one.
    public var errorNumber: Int32? {
        switch self {
        case .cannotCreateDirectory(_, let e), .writeFailed(_, let e), .readFailed(_, let e): return e
        default: return nil
        }
    }
}
