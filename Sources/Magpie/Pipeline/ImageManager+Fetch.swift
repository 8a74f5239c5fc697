import Logging

/// The pipeline's slow paths: an original on disk processed again, a fetch, the decode and
/// processing run, and storing what they made.
extension ImageManager {
    /// Processes the original bytes stored on disk under the plain key, and stores the result.
    /// An original that does not decode (a corrupt download, a torn or rotting file) is removed
    /// and is a miss: the source is fetched again rather than failing every processed retrieval
    /// of the URL until the entry expires.
    func fromOriginal(_ key: String, _ options: ImageOptions, _ target: ImageCache) async throws -> Fetched? {
        let originals = options.originalCache ?? target
        guard let data = try await originals.diskData(forKey: key, policy: options.cachePolicy) else { return nil }
        let image: Image
        do {
            image = try await process(data, options)
        } catch let error as MagpieError where error.meansDamagedInput {
            stats.withLock { $0.originalsDiscarded += 1 }
            await originals.discardUndecodableData(forKey: key, error: error)
            return nil
        }
        await store(image, data: data, key: key, options: options, target: target, storesOriginal: false)
        return Fetched(image: image, data: data, cacheType: .disk)
    }

    func fetch(
        _ source: Source, key: String, options: ImageOptions, target: ImageCache,
        report: @escaping @Sendable (Int, Int?) -> Void
    ) async throws -> Fetched {
        let loaded = try await load(source, options: options, report: report)
        let data = loaded.data
        let image: Image
        do {
            image = try await process(data, options)
        } catch let error as MagpieError {
            // Bodies that do not decode are remembered like 404s: asking again will not help.
            if case .network(let url, _) = source, case .decodingFailed = error {
                (options.downloader ?? downloader).rememberFailure(
                    of: url, headers: options.headers, error: .undecodable(String(describing: error)))
            }
            throw error
        }
        await store(
            image, data: data, key: key, options: options, target: target,
            metadata: loaded.validators, policy: cachePolicy(options, key: key, loaded: loaded))
        return Fetched(image: image, data: data, cacheType: .none)
    }

    /// The options' cache policy, narrowed by what the response said about caching it (when the
    /// options respect it): its freshness caps the expirations; `no-store`, `Vary: *`, and
    /// `private` under a key without credentials keep it off the disk.
    func cachePolicy(_ options: ImageOptions, key: String, loaded: LoadedSource) -> CachePolicy {
        var policy = options.cachePolicy
        guard options.respectsHTTPCacheHeaders, let (headers, receivedAt) = loaded.caching else { return policy }
        if headers.noStore || headers.vary == ["*"] || (headers.isPrivate && !CacheKeys.hasCredentials(key)) {
            policy.writesToDisk = false
            stats.withLock { $0.keptOffDisk += 1 }
        }
        // A lifetime of zero or less (no-cache, max-age=0, an Expires in the past) wants a
        // revalidation before each use, which the pipeline does not make yet: until it does, such
        // responses keep the caches' own expiry rather than being fetched again every time.
        if !headers.noCache, let lifetime = headers.freshnessLifetime(receivedAt: receivedAt), lifetime > 0 {
            policy.freshnessLimit = lifetime
        }
        return policy
    }

    /// Decodes and processes under the processing limit.
    /// A decode that finds the process's decode memory budget in use waits (without its permit)
    /// for another decode to finish and tries again.
    func process(_ data: [UInt8], _ options: ImageOptions) async throws -> Image {
        let processor = options.processor
        let firstFrame = options.onlyLoadFirstFrame
        while true {
            let epoch = DecodeMemoryBudget.epoch
            do {
                try Task.checkCancellation()
                let image = try await processing.run { try processor.process(.data(data), firstFrameOnly: firstFrame) }
                stats.withLock { $0.processed += 1 }
                return image
            } catch  where DecodeMemoryBudget.isBudgetInUse(error) {
                stats.withLock { $0.budgetWaits += 1 }
                await DecodeMemoryBudget.waitForRelease(after: epoch)
                try Task.checkCancellation()
            }
        }
    }

    /// Stores per options: memory always; disk unless memory-only; the original too when asked.
    /// Disk failures are logged and counted by the cache, never thrown: the image is good.
    func store(
        _ image: Image, data: [UInt8], key: String, options: ImageOptions, target: ImageCache,
        metadata: DiskEntryMetadata = DiskEntryMetadata(), storesOriginal: Bool = true, policy: CachePolicy? = nil
    ) async {
        let pid = options.processorIdentifier
        let policy = policy ?? options.cachePolicy
        do {
            try await target.store(image, original: data, forKey: key, processorIdentifier: pid, policy: policy)
            if storesOriginal && options.cacheOriginalImage && !pid.isEmpty && policy.writesToDisk {
                try await (options.originalCache ?? target).storeToDisk(
                    data, forKey: key, metadata: metadata, policy: policy)
            }
        } catch {
            logger.warning("caching failed", metadata: ["key": "\(key)", "error": "\(error)"])
        }
    }
}
