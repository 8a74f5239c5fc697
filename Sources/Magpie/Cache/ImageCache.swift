import Dispatch
import Logging
import Tracing

/// Where a cached image came from.
public enum CacheType: Sendable, Hashable {
    case none
    case memory
    case disk
}

/// Decoded images in memory over encoded bytes on disk (Kingfisher's `ImageCache`).
///
/// A disk hit is decoded and promoted to memory. Processed images are keyed `key@processor`
/// (the default processor adds nothing). Disk reads, writes and decoding run on a dedicated
/// dispatch queue, never on Swift's cooperative pool; `shutdown()` waits for writes still pending.
public final class ImageCache: Sendable {
    /// Hits, misses and traffic, per layer.
    public struct Statistics: Sendable, Hashable {
        public var memoryHits = 0
        public var memoryMisses = 0
        public var diskHits = 0
        public var diskMisses = 0
        public var bytesStoredToDisk = 0
        public var diskWriteFailures = 0
        /// Memory entries evicted to keep the limits / dropped because they expired.
        public var memoryEvictions = 0
        public var memoryExpirations = 0
        /// Disk entries removed because their bytes no longer decode (a torn write, a dying
        /// disk, a corrupt download): each was then treated as a miss.
        public var undecodableRemoved = 0
    }

    public let memoryStorage: MemoryCache<String, Image>
    public let diskStorage: DiskCache
    public let serializer: any CacheSerializer
    /// Where disk reads and writes run, and where disk hits are decoded (see ``BlockingExecutor``).
    let io: BlockingExecutor
    let decoder: BlockingExecutor
    let counters = Locked(Statistics())
    private let pending = Locked<(count: Int, waiters: [CheckedContinuation<Void, Never>])>((0, []))
    let logger: Logger

    /// Creates a cache named `name`: memory limits from `memory`, the disk cache under
    /// `$XDG_CACHE_HOME/magpie/<name>` unless `disk` says otherwise.
    public convenience init(
        name: String = "default", memory: MemoryCache<String, Image>.Config = .init(), disk: DiskCache.Config? = nil,
        serializer: any CacheSerializer = DefaultCacheSerializer(), clock: any CacheClock = SystemCacheClock(),
        logger: Logger = Logger(label: "magpie.image-cache")
    ) throws(DiskCacheError) {
        try self.init(
            name: name, memory: memory, disk: disk, serializer: serializer, clock: clock, io: .io,
            decoder: .decoding, logger: logger)
    }

    /// As above, with the executors its disk I/O and disk-hit decodes run on.
    package init(
        name: String = "default", memory: MemoryCache<String, Image>.Config = .init(), disk: DiskCache.Config? = nil,
        serializer: any CacheSerializer = DefaultCacheSerializer(), clock: any CacheClock = SystemCacheClock(),
        io: BlockingExecutor, decoder: BlockingExecutor, logger: Logger = Logger(label: "magpie.image-cache")
    ) throws(DiskCacheError) {
        self.io = io
        self.decoder = decoder
        memoryStorage = MemoryCache(config: memory, clock: clock)
        diskStorage = try DiskCache(config: disk ?? DiskCache.Config(name: name), clock: clock)
        self.serializer = serializer
        self.logger = logger
        if diskStorage.isReadOnly {
            logger.warning(
                "disk cache is read-only: hits are served, nothing is written",
                metadata: ["directory": "\(diskStorage.directory)"])
        }
        if diskStorage.openingReport.leftoversRemoved + diskStorage.openingReport.invalidRemoved > 0 {
            logger.notice(
                "disk cache repaired on open",
                metadata: [
                    "directory": "\(diskStorage.directory)",
                    "leftovers": "\(diskStorage.openingReport.leftoversRemoved)",
                    "invalid": "\(diskStorage.openingReport.invalidRemoved)",
                ])
        }
    }

    /// The key an image is cached under: `key`, plus `"@" + processorIdentifier` for processed ones.
    public static func cacheKey(_ key: String, processorIdentifier: String? = nil) -> String {
        CacheKeys.processed(key, processorIdentifier: processorIdentifier)
    }

    /// Stores `image` in memory and, unless the policy says memory only, its serialized bytes
    /// on disk (in the background unless the policy waits; see ``shutdown()``).
    /// - Throws: the serializer's or the disk cache's error when waiting for the disk write.
    public func store(
        _ image: Image, original: [UInt8]? = nil, forKey key: String, processorIdentifier: String? = nil,
        metadata: DiskEntryMetadata = DiskEntryMetadata(), policy: CachePolicy
    ) async throws {
        let isProcessed = !(processorIdentifier ?? "").isEmpty
        let serializer = policy.serializer ?? self.serializer
        // Encoding is CPU work: on the decoding executor, under the same width as decodes.
        try await store(
            image, forKey: key, processorIdentifier: processorIdentifier, metadata: metadata, policy: policy,
            encode: { try serializer.data(for: image, original: original, isProcessed: isProcessed) })
    }

    /// As the public `store` with the bytes for the disk already made (`encoded`, by the
    /// serializer the policy names, in the job that made the image) or made by `encode` on the
    /// decoding executor.
    func store(
        _ image: Image, encoded: [UInt8]? = nil, forKey key: String, processorIdentifier: String?,
        metadata: DiskEntryMetadata, policy: CachePolicy, encode: (@Sendable () throws -> [UInt8])? = nil
    ) async throws {
        let cacheKey = Self.cacheKey(key, processorIdentifier: processorIdentifier)
        memoryStorage.store(image, forKey: cacheKey, expiration: memoryExpiration(policy))
        guard policy.writesToDisk else { return }
        let expiration = diskExpiration(policy)
        let freshness = policy.freshness
        try await diskWrite(cacheKey, waits: policy.waitsForDisk, encode: encoded == nil ? encode : nil) {
            [diskStorage] made in
            let data = encoded ?? made
            try diskStorage.store(
                data, forKey: cacheKey, expiration: expiration, metadata: metadata, freshness: freshness)
            return data.count
        }
    }

    /// Stores bytes (an original download, say) on disk only, with the response's metadata.
    public func storeToDisk(
        _ data: [UInt8], forKey key: String, processorIdentifier: String? = nil,
        metadata: DiskEntryMetadata = DiskEntryMetadata(), policy: CachePolicy
    ) async throws {
        let cacheKey = Self.cacheKey(key, processorIdentifier: processorIdentifier)
        let expiration = diskExpiration(policy)
        let freshness = policy.freshness
        try await diskWrite(cacheKey, waits: policy.waitsForDisk, encode: nil) { [diskStorage] _ in
            try diskStorage.store(
                data, forKey: cacheKey, expiration: expiration, metadata: metadata, freshness: freshness)
            return data.count
        }
    }

    /// The expirations a store uses: the policy's, else the caches' own, shortened to the
    /// policy's freshness limit.
    func memoryExpiration(_ policy: CachePolicy) -> StorageExpiration? {
        guard policy.freshnessLimit != nil else { return policy.memoryExpiration }
        return policy.capped(policy.memoryExpiration ?? memoryStorage.config.expiration, now: diskStorage.clock.now())
    }

    /// (On disk, an origin's freshness given as ``CachePolicy/freshness`` is the disk cache's to
    /// apply: entries with validators outlive it, to be revalidated.)
    func diskExpiration(_ policy: CachePolicy) -> StorageExpiration? {
        guard policy.freshnessLimit != nil, !policy.freshness.freshUntil.isFinite else { return policy.diskExpiration }
        return policy.capped(policy.diskExpiration ?? diskStorage.config.expiration, now: diskStorage.clock.now())
    }

    /// Runs a disk write now (waiting) or in the background, and counts its bytes: `encode` (when
    /// given) on the decoding executor, then `write` with its bytes on the I/O executor.
    private func diskWrite(
        _ cacheKey: String, waits: Bool, encode: (@Sendable () throws -> [UInt8])?,
        _ write: @escaping @Sendable ([UInt8]) throws -> Int
    ) async throws {
        // A write in the background runs in a task of its own: its encode's span joins the store's trace.
        let context = ServiceContext.current ?? .topLevel
        let work: @Sendable () async throws -> Void = { [counters, decoder, io] in
            let data: [UInt8]
            if let encode {
                data = try await withSpan("magpie.encode", context: context) { _ in try await decoder.run(encode) }
            } else {
                data = []
            }
            let bytes = try await io.run { try write(data) }
            counters.withLock { $0.bytesStoredToDisk += bytes }
        }
        if waits {
            try await work()
        } else {
            background(work, key: cacheKey)
        }
    }

    /// The image in memory; a hit is counted, a miss only with `countsMiss` (a retrieval that
    /// looks twice, before and after joining others, counts one miss).
    func memoryImage(
        forKey key: String, processorIdentifier: String?, policy: CachePolicy, countsMiss: Bool = true
    ) -> Image? {
        let image = memoryStorage.value(
            forKey: Self.cacheKey(key, processorIdentifier: processorIdentifier),
            extendingExpiration: policy.memoryExtending)
        if image != nil {
            counters.withLock { $0.memoryHits += 1 }
        } else if countsMiss {
            counters.withLock { $0.memoryMisses += 1 }
        }
        return image
    }

    /// The bytes stored on disk for `key`, read off the cooperative pool; `nil` when absent.
    func diskData(forKey key: String, processorIdentifier: String? = nil, policy: CachePolicy) async throws
        -> [UInt8]?
    {
        let cacheKey = Self.cacheKey(key, processorIdentifier: processorIdentifier)
        let extending = policy.diskExtending
        return try await tracedRead {
            try await runOnIO { [diskStorage] in
                try diskStorage.value(forKey: cacheKey, extendingExpiration: extending)
            }
        }
    }

    /// The cache folder's secret for keyed digests of credentials in cache keys.
    var credentialSecret: [UInt8] { diskStorage.secret }

    /// Whether `key`'s entry is on disk, checked against the file (one `fstatat`).
    func isOnDisk(forKey key: String, processorIdentifier: String? = nil) -> Bool {
        diskStorage.isCached(forKey: Self.cacheKey(key, processorIdentifier: processorIdentifier))
    }

    /// Where `key` is cached, without reading anything: in memory, else on disk when the index
    /// has a fresh entry and its file is still there (one `fstatat`, as Kingfisher, SDWebImage
    /// and Nuke ask the file system): an entry another process or a person removed, or a cache
    /// folder deleted whole, is no longer claimed. ``imageCachedTypeFromIndex(forKey:processorIdentifier:)``
    /// answers from the index alone.
    public func imageCachedType(forKey key: String, processorIdentifier: String? = nil) -> CacheType {
        let cacheKey = Self.cacheKey(key, processorIdentifier: processorIdentifier)
        if memoryStorage.isCached(forKey: cacheKey) { return .memory }
        return diskStorage.isCached(forKey: cacheKey) ? .disk : .none
    }

    /// The fast answer of ``imageCachedType(forKey:processorIdentifier:)``: no system call, the
    /// disk answer from this process's index (a file removed behind its back still counts as
    /// `.disk` until a read finds it gone).
    public func imageCachedTypeFromIndex(forKey key: String, processorIdentifier: String? = nil) -> CacheType {
        let cacheKey = Self.cacheKey(key, processorIdentifier: processorIdentifier)
        if memoryStorage.isCached(forKey: cacheKey) { return .memory }
        return diskStorage.isCachedFromIndex(forKey: cacheKey) ? .disk : .none
    }

    public var statistics: Statistics {
        var s = counters.withLock { $0 }
        let memory = memoryStorage.statistics
        s.memoryEvictions = memory.evictions
        s.memoryExpirations = memory.expirations
        return s
    }

    /// Waits until every background disk write started so far has finished.
    public func shutdown() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = pending.withLock { p -> Bool in
                if p.count == 0 { return true }
                p.waiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
        diskStorage.waitForBackgroundWork()
    }

    // MARK: - running blocking work off the cooperative pool

    func runOnIO<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await io.run(work)
    }

    private func background(_ work: @escaping @Sendable () async throws -> Void, key: String) {
        pending.withLock { $0.count += 1 }
        Task.detached(priority: .utility) { [pending, counters, logger] in
            do {
                try await work()
            } catch DiskCacheError.readOnly {
                // Said once, when the cache opened.
                counters.withLock { $0.diskWriteFailures += 1 }
            } catch {
                counters.withLock { $0.diskWriteFailures += 1 }
                logger.error("disk write failed", metadata: ["key": "\(key)", "error": "\(error)"])
            }
            let waiters = pending.withLock { p -> [CheckedContinuation<Void, Never>] in
                p.count -= 1
                guard p.count == 0 else { return [] }
                defer { p.waiters.removeAll() }
                return p.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
    }
}
