import Logging

/// The pipeline's slow paths: an original on disk processed again, a fetch, the decode and
/// processing run, and storing what they made.
extension ImageManager {
    /// Processes the original bytes stored on disk under the plain key, and stores the result
    /// with the original's validators and freshness. A stale original is revalidated first.
    /// An original that does not decode (a corrupt download, a torn or rotting file) is removed
    /// and is a miss: the source is fetched again rather than failing every processed retrieval
    /// of the URL until the entry expires.
    func fromOriginal(
        _ source: Source, _ key: String, _ options: ImageOptions, _ target: ImageCache,
        report: @escaping @Sendable (Int, Int?) -> Void
    ) async throws -> Fetched? {
        let originals = options.cache.originalCache ?? target
        let allowingStale = options.cache.http.respectsHeaders || (options.readPolicy == .revalidate)
        guard
            let entry = try await originals.diskEntry(
                forKey: key, policy: options.cache.policy, allowingStale: allowingStale)
        else { return nil }
        let data = entry.payload
        let validators = entry.metadata
        guard variantMatches(entry.variant, options: options) else {
            stats.withLock { $0.variantMisses += 1 }
            return nil
        }
        var freshness = entry.freshness
        var stores = true
        if revalidationNeeded(freshness, isStale: entry.isStale, options: options) {
            let outcome = try await revalidate(
                source, key: key, options: options, target: target, validators: validators, freshness: freshness,
                isStale: entry.isStale, renewing: [""], report: report)
            switch outcome {
            case nil: return nil
            case .replaced(let fetched): return fetched
            case .confirmed(let renewed): freshness = renewed
            case .servedStale: stores = false
            }
        }
        let storePolicy = policy(options, keeping: freshness, variant: validators.variant, target: target)
        let made: (image: Image, encoded: [UInt8]?)
        do {
            made = try await process(
                data, options, encoder: stores ? encoder(options, storePolicy, original: data, target: target) : nil)
        } catch let error as ImageCodecError where error.meansDamagedInput {
            stats.withLock { $0.originalsDiscarded += 1 }
            await originals.discardUndecodableData(forKey: key, error: error)
            return nil
        }
        if stores {
            await store(
                made.image, data: data, encoded: made.encoded, key: key, options: options, target: target,
                metadata: validators, storesOriginal: false, policy: storePolicy)
        }
        return Fetched(
            image: made.image, data: data, cacheType: .disk,
            stored: made.encoded.map {
                StoredBytes(bytes: $0, lastModified: validators.lastModified, freshness: freshness)
            }, freshness: freshness)
    }

    func fetch(
        _ source: Source, key: String, options: ImageOptions, target: ImageCache,
        report: @escaping @Sendable (Int, Int?) -> Void
    ) async throws -> Fetched {
        if case .network = source, let failure = undecodableFailure(forKey: key, options: options) { throw failure }
        let loaded = try await load(source, options: options, report: report)
        return try await processAndStore(loaded, source: source, key: key, options: options, target: target)
    }

    /// Decodes and processes what a load brought, and stores it under the policy its response
    /// allows.
    func processAndStore(
        _ loaded: LoadedSource, source: Source, key: String, options: ImageOptions, target: ImageCache
    ) async throws -> Fetched {
        let data = loaded.data
        let policy = cachePolicy(options, key: key, loaded: loaded, target: target)
        let made: (image: Image, encoded: [UInt8]?)
        do {
            made = try await process(data, options, encoder: encoder(options, policy, original: data, target: target))
        } catch let error as ImageCodecError {
            // Bodies that do not decode are remembered like 404s: asking again will not help.
            if case .network = source, case .decodingFailed = error {
                rememberUndecodable(forKey: key, why: String(describing: error), options: options)
            }
            throw error
        }
        let metadata = metadata(loaded, options: options)
        await store(
            made.image, data: data, encoded: made.encoded, key: key, options: options, target: target,
            metadata: metadata, policy: policy)
        return Fetched(
            image: made.image, data: data, cacheType: .none,
            stored: made.encoded.map {
                StoredBytes(bytes: $0, lastModified: metadata.lastModified, freshness: policy.freshness)
            }, freshness: policy.freshness)
    }

    /// The encode of a processed image for a store that waits for its disk write, to run in the
    /// job that makes the image (one trip to the executor, not two); `nil` for any other store.
    func encoder(
        _ options: ImageOptions, _ policy: CachePolicy, original: [UInt8], target: ImageCache
    ) -> (@Sendable (Image) throws -> [UInt8])? {
        guard policy.writesToDisk, policy.waitsForDisk, !options.processorIdentifier.isEmpty else { return nil }
        let serializer = policy.serializer ?? target.serializer
        return { image in try serializer.data(for: image, original: original, isProcessed: true) }
    }

    /// The options' cache policy, narrowed by what the response said about caching it (when the
    /// options respect it): its freshness (see ``EntryFreshness``) bounds the memory copy and
    /// decides when the disk entry needs a revalidation; `no-store`, a status that is not
    /// heuristically cacheable without explicit freshness (a `201`), `Vary: *`, and `private`
    /// under a key without credentials keep it off the disk.
    func cachePolicy(_ options: ImageOptions, key: String, loaded: LoadedSource, target: ImageCache) -> CachePolicy {
        var policy = options.cache.policy
        guard options.cache.http.respectsHeaders, let (stated, receivedAt) = loaded.caching else { return policy }
        var headers = stated
        // A response that varies on what the request sent is kept on disk with its variant, which
        // every read checks; the memory cache, keyed by URL alone, does not keep it. A variant
        // longer than 1 KiB (an origin naming hundreds of fields) is not kept at all, like `Vary: *`.
        let varied = headers.vary.isEmpty ? nil : variant(varying: headers.vary, options: options)
        if varied != nil { policy.memoryExpiration = .expired }
        if !headers.isStorable || headers.vary == ["*"] || (headers.isPrivate && !CacheKeys.hasCredentials(key))
            || (varied?.utf8.count ?? 0) > 1024
        {
            policy.writesToDisk = false
            stats.withLock { $0.keptOffDisk += 1 }
        }
        if options.cache.http.usesHeuristicFreshness && !headers.hasExplicitFreshness {
            // As browsers do: a tenth of the time since Last-Modified; without it, stale at once.
            headers.maxAge = Int(headers.heuristicLifetime(receivedAt: receivedAt) ?? 0)
        }
        if let freshness = EntryFreshness(headers, receivedAt: receivedAt, now: clock.now()) {
            policy.freshness = freshness
            // Zero (no-cache, max-age=0, an Expires in the past): no memory copy, so every use
            // goes to the disk entry and revalidates it.
            if freshness.freshUntil.isFinite { policy.freshnessLimit = Double(freshness.lifetime) }
        }
        return policy
    }

    /// What a response leaves with its disk entries: its validators and content type, and its
    /// variant when it varies on request fields (and the options follow the headers).
    func metadata(_ loaded: LoadedSource, options: ImageOptions) -> DiskEntryMetadata {
        var metadata = loaded.validators
        if options.cache.http.respectsHeaders, let vary = loaded.caching?.headers.vary, !vary.isEmpty {
            metadata.variant = variant(varying: vary, options: options)
        }
        return metadata
    }

    /// Decodes and processes under the processing limit.
    /// A decode that finds the process's decode memory budget in use waits (without its permit)
    /// for another decode to finish and tries again.
    func process(_ data: [UInt8], _ options: ImageOptions) async throws -> Image {
        try await process(data, options, encoder: nil).image
    }

    /// As `process`, and with `encoder` the image encoded in the same job. An encode that fails
    /// gives no bytes: the store encodes again and logs the failure, which fails no retrieval.
    func process(
        _ data: [UInt8], _ options: ImageOptions, encoder: (@Sendable (Image) throws -> [UInt8])?
    ) async throws -> (image: Image, encoded: [UInt8]?) {
        let processor = options.processor
        let firstFrame = options.onlyLoadFirstFrame
        return try await DecodeMemoryBudget.retrying(waiting: { stats.withLock { $0.budgetWaits += 1 } }) {
            try Task.checkCancellation()
            let made = try await tracedProcessing(processor: options.processorIdentifier) {
                try await processing.run {
                    try DecodeTiming.measuring {
                        let image = try processor.process(.data(data), firstFrameOnly: firstFrame)
                        guard let encoder else { return Made(image: image) }
                        let start = DecodeTiming.wallNanoseconds()
                        let encoded = try? encoder(image)
                        return Made(image: image, encoded: encoded, encoding: (start, DecodeTiming.wallNanoseconds()))
                    }
                }
            }
            stats.withLock { $0.processed += 1 }
            if let (start, end) = made.encoding { traceEncode(from: start, to: end) }
            return (made.image, made.encoded)
        }
    }

    /// What a processing job made: the image, and its bytes when it encoded them (and when).
    private struct Made: Sendable {
        var image: Image
        var encoded: [UInt8]? = nil
        var encoding: (UInt64, UInt64)? = nil
    }

    /// Stores per options: memory always; disk unless memory-only; the original too when asked.
    /// Disk failures are logged and counted by the cache, never thrown: the image is good.
    func store(
        _ image: Image, data: [UInt8], encoded: [UInt8]? = nil, key: String, options: ImageOptions,
        target: ImageCache, metadata: DiskEntryMetadata = DiskEntryMetadata(), storesOriginal: Bool = true,
        policy: CachePolicy? = nil
    ) async {
        let pid = options.processorIdentifier
        let policy = policy ?? options.cache.policy
        if !pid.isEmpty && policy.writesToDisk {
            recentProcessors.withLock { recent in
                guard recent.last != pid else { return }
                recent.removeAll { $0 == pid }
                recent.append(pid)
                if recent.count > 32 { recent.removeFirst() }
            }
        }
        do {
            if let encoded {
                try await target.store(
                    image, encoded: encoded, forKey: key, processorIdentifier: pid, metadata: metadata, policy: policy)
            } else {
                try await target.store(
                    image, original: data, forKey: key, processorIdentifier: pid, metadata: metadata, policy: policy)
            }
            if storesOriginal && options.cache.storesOriginal && !pid.isEmpty && policy.writesToDisk {
                try await (options.cache.originalCache ?? target).storeToDisk(
                    data, forKey: key, metadata: metadata, policy: policy)
            }
        } catch {
            logger.warning("caching failed", metadata: ["key": "\(key)", "error": "\(error)"])
        }
    }
}
