#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The disk cache's settings.
extension DiskCache {
    /// Directory, limits and naming.
    public struct Config: Sendable {
        /// Name of the cache's directory under the default root.
        public var name: String
        /// The directory; `nil` for `$XDG_CACHE_HOME/magpie/<name>` (else `~/.cache/magpie/<name>`).
        public var directory: String?
        /// Bytes the folder may take on disk (each file's blocks, the index's pages and log); 0
        /// for no limit. 1 GiB.
        public var sizeLimit: Int
        /// Entries the folder may hold, rows and files; 0 for no limit. 1,000,000: what a day of
        /// a busy thumbnail service's variants makes, and an index of about 100 MB.
        public var countLimit: Int = 1_000_000
        /// Free bytes the cache leaves on the folder's volume (`statvfs`, looked at once a second
        /// at most while writing): below it, the least recently accessed entries go until it is
        /// free again or the cache is empty; 0 for none. 256 MiB: a server's disk is never filled
        /// by its cache.
        public var freeSpaceLimit: Int = 256 << 20
        /// Entries of at most this many bytes (header and payload) are rows of the folder's index;
        /// larger ones are files. 0 keeps every entry a file. 8 KiB: see the caches page for the
        /// measurement behind it.
        public var inlineThreshold: Int = 8 << 10
        /// Expiry of stored entries unless `store` says otherwise. Default 7 days.
        public var expiration: StorageExpiration
        /// Appended to file names (`"png"` gives `<md5>.png`).
        public var pathExtension: String?
        /// Name files by the MD5 of the key (default); otherwise by the key itself.
        public var usesHashedFileName: Bool
        /// How often expired entries are swept in the background; `nil` for never. Default 10 min.
        public var sweepInterval: Duration?
        /// The largest entry file written or read (headers included), whatever the size limit:
        /// a larger file (a sparse file declaring gigabytes, say) is invalid and never read into
        /// memory. 256 MiB; at most 4 GiB, whatever is set.
        public var maxEntrySize: Int
        /// How long a process waits for another process's download of the same key (a lease in
        /// the folder, see ``DiskCache/DownloadLease``) before downloading itself; `nil`: no
        /// sharing between processes. 30 s.
        public var downloadLeaseTimeout: Duration? = .seconds(30)

        public init(
            name: String = "default", directory: String? = nil, sizeLimit: Int = 1 << 30,
            expiration: StorageExpiration = .days(7), pathExtension: String? = nil, usesHashedFileName: Bool = true,
            sweepInterval: Duration? = .seconds(600), maxEntrySize: Int = 256 << 20, countLimit: Int = 1_000_000,
            freeSpaceLimit: Int = 256 << 20, inlineThreshold: Int = 8 << 10
        ) {
            self.countLimit = max(0, countLimit)
            self.freeSpaceLimit = max(0, freeSpaceLimit)
            self.inlineThreshold = max(0, min(inlineThreshold, 1 << 20))
            self.maxEntrySize = max(0, maxEntrySize)
            self.name = name
            self.directory = directory
            self.sizeLimit = sizeLimit
            self.expiration = expiration
            self.pathExtension = pathExtension
            self.usesHashedFileName = usesHashedFileName
            self.sweepInterval = sweepInterval
        }

        /// `directory`, else `$XDG_CACHE_HOME/magpie/<name>`, else `$HOME/.cache/magpie/<name>`;
        /// `nil` when none is set (the cache then refuses to open rather than use a shared place).
        public var resolvedDirectory: String? {
            directory ?? DiskCache.defaultDirectory(name: name, environment: ProcessInfo.processInfo.environment)
        }

        /// The largest entry file this cache writes or reads.
        var entryCap: Int { min(sizeLimit > 0 ? min(sizeLimit, maxEntrySize) : maxEntrySize, Int(UInt32.max)) }
    }
}
