#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Fetches a list of sources into the caches ahead of need (Kingfisher's `ImagePrefetcher`,
/// SDWebImage's `SDWebImagePrefetcher`).
///
/// Sources already cached are skipped. In disk-only mode the downloaded bytes are stored on disk
/// without decoding: cache warming for a server, where later retrievals process the original
/// (see ``ImageOptions/CacheOptions/storesOriginal``). Cancel the task that runs ``start(progress:)`` to
/// stop: running fetches are cancelled and the rest are counted as cancelled.
public struct ImagePrefetcher: Sendable {
    /// How far a prefetch has come.
    public struct Progress: Sendable, Hashable {
        public var total: Int
        public var completed = 0
        public var skipped = 0
        public var revalidated = 0
        public var failed = 0
        public var finished: Int { completed + skipped + revalidated + failed }
    }

    /// What a prefetch did.
    public struct Summary: Sendable {
        /// Fetched and stored now.
        public var completed: [Source] = []
        /// Already cached.
        public var skipped: [Source] = []
        /// Cached but stale (or asked about with ``ImageOptions/ReadPolicy/revalidate``), and
        /// confirmed by the origin with a `304`: renewed, nothing downloaded.
        public var revalidated: [Source] = []
        public var failed: [(source: Source, error: any Error)] = []
        /// Not started or stopped because the prefetch was cancelled.
        public var cancelled: [Source] = []
        /// Bytes downloaded or provided.
        public var bytes = 0
    }

    public let sources: [Source]
    public let manager: ImageManager
    public let options: ImageOptions
    public let maxConcurrentDownloads: Int
    public let diskOnly: Bool
    private let downloads: AsyncSemaphore

    public init(
        sources: [Source], manager: ImageManager = .shared, options: ImageOptions = ImageOptions(),
        maxConcurrentDownloads: Int = 5, diskOnly: Bool = false
    ) {
        self.sources = sources
        self.manager = manager
        // Low unless the caller says otherwise: a request someone waits for goes before
        // prefetches waiting for a download slot (and lifts one it joins).
        var options = options
        if options.request.priority == nil { options.request.priority = .low }
        self.options = options
        self.maxConcurrentDownloads = max(1, maxConcurrentDownloads)
        self.diskOnly = diskOnly
        self.downloads = AsyncSemaphore(limit: max(1, maxConcurrentDownloads))
    }

    /// A prefetcher of URLs.
    public init(
        urls: [URL], manager: ImageManager = .shared, options: ImageOptions = ImageOptions(),
        maxConcurrentDownloads: Int = 5, diskOnly: Bool = false
    ) {
        self.init(
            sources: urls.map { .network($0) }, manager: manager, options: options,
            maxConcurrentDownloads: maxConcurrentDownloads, diskOnly: diskOnly)
    }

    private enum Outcome: Sendable {
        case completed(Int)
        case skipped
        case revalidated
        case failed(any Error)
        case cancelled
    }

    /// Runs the prefetch; `progress` is called after each source finishes.
    public func start(progress: (@Sendable (Progress) -> Void)? = nil) async -> Summary {
        var summary = Summary()
        var state = Progress(total: sources.count)
        // Disk-only fetches hold a download slot only while downloading: the disk write of
        // one overlaps the next download.
        let tasks = diskOnly ? 2 * maxConcurrentDownloads : maxConcurrentDownloads
        let sources = self.sources
        await BoundedConcurrency.forEach(
            count: sources.count, limit: tasks, { index in await self.fetch(sources[index]) },
            each: { index, outcome in
                let source = sources[index]
                switch outcome {
                case .completed(let bytes):
                    summary.completed.append(source)
                    summary.bytes += bytes
                    state.completed += 1
                case .skipped:
                    summary.skipped.append(source)
                    state.skipped += 1
                case .revalidated:
                    summary.revalidated.append(source)
                    state.revalidated += 1
                case .failed(let error):
                    summary.failed.append((source, error))
                    state.failed += 1
                case .cancelled:
                    summary.cancelled.append(source)
                }
                if case .cancelled = outcome {} else { progress?(state) }
            },
            notStarted: { index in summary.cancelled.append(sources[index]) })
        return summary
    }

    private func fetch(_ source: Source) async -> Outcome {
        if Task.isCancelled { return .cancelled }
        let key = manager.cacheKey(for: source, options: options)
        let target = options.cache.target ?? manager.cache
        do {
            if diskOnly {
                // Skipped only when the file is really there: another process's trim or a
                // person may have removed it behind this process's index.
                if options.readPolicy != .refresh && options.readPolicy != .revalidate && target.isOnDisk(forKey: key) {
                    return .skipped
                }
                // The original's bytes through the manager's one pipeline for bytes: a stale entry
                // (or any, when revalidation is forced) with validators is asked about now, and a
                // 304 renews it without a download; a download is stored as it came, not decoded,
                // under the policy its caching headers allow.
                var original = options
                original.processor = DefaultImageProcessor()
                original.onlyLoadFirstFrame = false
                let result = try await downloads.withPermit {
                    try await manager.retrieveData(
                        with: source, options: original, progress: nil, prefetching: true)
                }
                if result.cacheType == .disk { return result.revalidated ? .revalidated : .skipped }
                return .completed(result.data.count)
            }
            if options.readPolicy != .refresh && options.readPolicy != .revalidate
                && target.imageCachedType(forKey: key, processorIdentifier: options.processorIdentifier) != .none
            {
                return .skipped
            }
            var retrieval = options
            retrieval.keepsOriginalData = true
            let result = try await manager.retrieveImage(with: source, options: retrieval)
            if result.cacheType != .none {
                // A cache answered after all: with forced revalidation only once the origin
                // confirmed it; otherwise the entry turned up after the check above.
                return options.readPolicy == .revalidate ? .revalidated : .skipped
            }
            return .completed(result.data?.count ?? 0)
        } catch {
            guard !Task.isCancelled, let failure = ImageRetrieveError.wrapping(error) else { return .cancelled }
            return .failed(failure)
        }
    }
}
