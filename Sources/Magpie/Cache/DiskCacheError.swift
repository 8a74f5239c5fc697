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
    /// The key cannot name a file (only without hashed file names: empty, with a "/", or starting
    /// with "." as the cache's own files do).
    case invalidKey(String)
    /// The entry alone is larger than the cache's size limit (or its largest entry size).
    case entryTooLarge(size: Int, limit: Int)
    /// Neither `XDG_CACHE_HOME` nor `HOME` is set to an absolute path, and no directory was given.
    case noDirectory
    /// The folder holds files but no cache marker: it is not a cache, and nothing in it is touched.
    case notACacheDirectory(path: String)
    /// The folder is a symbolic link, belongs to another user, or group or others may write to it.
    case insecureDirectory(path: String, reason: String)
    /// The folder could not be written when the cache opened it: reads work, writes do not.
    case readOnly(path: String)

    public var description: String {
        func reason(_ e: Int32) -> String { String(cString: strerror(e)) }
        switch self {
        case .cannotCreateDirectory(let path, let e): return "cannot create cache directory \(path): \(reason(e))"
        case .notADirectory(let path): return "cache path \(path) is not a directory"
        case .writeFailed(let path, let e): return "cannot write \(path): \(reason(e))"
        case .readFailed(let path, let e): return "cannot read \(path): \(reason(e))"
        case .invalidKey(let key): return "key \"\(key)\" cannot be used as a file name"
        case .entryTooLarge(let size, let limit): return "entry of \(size) bytes is larger than the \(limit)-byte cache"
        case .noDirectory:
            return "no cache directory: set MAGPIE_CACHE_HOME, XDG_CACHE_HOME or HOME, or give a directory"
        case .notACacheDirectory(let path):
            return "\(path) holds files but is not a Magpie cache (no \(DiskCache.markerName)): refusing to use it"
        case .insecureDirectory(let path, let reason): return "refusing cache directory \(path): \(reason)"
        case .readOnly(let path): return "cache directory \(path) is read-only: nothing is written"
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
