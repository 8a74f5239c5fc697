import ArgumentParser
import Magpie

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// Cache and concurrency flags shared by `fetch` and `prefetch`.
struct PipelineFlags: ParsableArguments {
    @OptionGroup var directory: CacheDirectoryOption
    @OptionGroup var addresses: AddressFlags
    @OptionGroup(title: "Sources beyond http(s) and files") var sources: SourceFlags

    @Option(name: .long, help: "Disk cache size limit in bytes (0 = none).")
    var diskLimit: Int = DiskCache.Config().sizeLimit

    @Option(name: .long, help: "Memory cache limit in bytes of decoded pixels (a short-lived process needs little).")
    var memoryLimit: Int = 64 << 20

    @Option(name: .shortAndLong, help: "Retrievals running at once.")
    var jobs: Int = 8

    @Option(name: .shortAndLong, help: "Thumbnail size: fit inside SIZE × SIZE (default: full size).")
    var size: Int?

    @Flag(
        name: .long,
        help: "With --size: faster, slightly softer thumbnails (shrink-on-load down to the size, not twice it).")
    var fast = false

    @Flag(name: .long, help: "Skip the caches and download again.")
    var forceRefresh = false

    @Flag(
        name: .long,
        help: "Download even what another process sharing the cache folder is downloading now (no lease).")
    var noSharedDownloads = false

    @Flag(
        name: .long,
        help: """
            Ask the origin about every cached image that has an ETag or Last-Modified, fresh or not             (If-None-Match / If-Modified-Since, like curl -z): a 304 renews the entry without a download;             fresh immutable ones are not asked about.
            """)
    var revalidate = false

    @Flag(
        name: .long,
        help: "Serve a stale cached image when revalidating it fails (the origin is down, times out or answers 5xx).")
    var serveStale = false

    @Flag(
        name: .long,
        help: """
            Keep an image whose response states no lifetime (no max-age, no Expires) fresh for a tenth of \
            the time since its Last-Modified, at most a week, as browsers do, instead of for the cache's own \
            lifetime.
            """)
    var heuristicFreshness = false

    @Option(
        name: .long,
        help:
            "Bytes all decodes in flight may use together (0 = no budget; default: a quarter of the process's memory).")
    var decodeMemory: Int?

    @Option(
        name: .long,
        help: """
            Retries of a download that failed for a transient reason (connection refused or reset, \
            timeout, 5xx, 429), with exponential back-off and jitter; a Retry-After the server sends is \
            waited for, up to --retry-max-wait.
            """)
    var retries = 2

    @Option(name: .long, help: "First back-off delay in milliseconds (doubling on each retry, up to 30 s).")
    var retryDelay = 500

    @Option(name: .long, help: "Longest Retry-After waited for, in seconds; one asking for more fails at once.")
    var retryMaxWait = 60

    @Flag(name: .long, help: "Print the summary as JSON.")
    var json = false

    func validate() throws {
        guard jobs > 0 else { throw ValidationError("--jobs must be at least 1") }
        if let size, size <= 0 { throw ValidationError("--size must be positive") }
        if fast && size == nil { throw ValidationError("--fast needs --size") }
        guard diskLimit >= 0 else { throw ValidationError("--disk-limit cannot be negative") }
        guard memoryLimit > 0 else { throw ValidationError("--memory-limit must be positive") }
        if let decodeMemory, decodeMemory < 0 { throw ValidationError("--decode-memory cannot be negative") }
        guard (0...100).contains(retries) else { throw ValidationError("--retries must be between 0 and 100") }
        guard retryDelay >= 0 else { throw ValidationError("--retry-delay cannot be negative") }
        guard retryMaxWait >= 0 else { throw ValidationError("--retry-max-wait cannot be negative") }
        if revalidate && forceRefresh { throw ValidationError("--revalidate and --force-refresh exclude each other") }
    }

    /// The downloader's retry strategy from the flags (`nil` for `--retries 0`).
    var retryStrategy: RetryStrategy? {
        guard retries > 0 else { return nil }
        return RetryStrategy(
            maxRetries: retries, backoff: .exponential(.milliseconds(retryDelay)), jitter: 0.5,
            maxRetryAfter: .seconds(retryMaxWait))
    }

    func makeManager() throws -> ImageManager {
        if let decodeMemory { DecodeMemoryBudget.limit = decodeMemory }
        do {
            var disk = DiskCache.Config(directory: directory.cacheDir, sizeLimit: diskLimit, sweepInterval: nil)
            if noSharedDownloads { disk.downloadLeaseTimeout = nil }
            let cache = try ImageCache(memory: .init(totalCostLimit: memoryLimit, cleanInterval: nil), disk: disk)
            var config = ImageDownloader.Config(retryStrategy: retryStrategy)
            config.addressPolicy = try addresses.policy()
            let transports = sources.apply(to: &config)
            return ImageManager(cache: cache, downloader: ImageDownloader(config: config, transports: transports))
        } catch {
            throw directory.failure(error)
        }
    }

    func options() throws -> ImageOptions {
        try ImageOptions.make { make in
            if let size {
                let constraint = make.size.lessThanOrEqualTo(size)
                if fast { constraint.fast() }
            }
            if forceRefresh { make.forceRefresh() }
            if revalidate { make.cache.revalidatingAlways() }
            if serveStale { make.cache.servingStale(onError: true) }
            if heuristicFreshness { make.cache.heuristicFreshness() }
        }
    }
}
