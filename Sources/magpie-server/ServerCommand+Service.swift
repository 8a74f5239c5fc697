import ArgumentParser
import Logging
import Magpie
import MagpieServer
import Metrics

#if canImport(Glibc)
    import Glibc
#endif

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension ServerCommand {
    func makeService(metrics: (any MetricsFactory)?) async throws -> ImageService {
        var configuration = ServiceConfiguration()
        if thumbor.thumborConfig != nil { configuration.thumbor = ThumborOptions.loaded.withLock { $0 } }
        var keys = key
        var salts = salt
        if keys.isEmpty, let k = ProcessInfo.processInfo.environment["MAGPIE_KEY"] { keys = [k] }
        if salts.isEmpty, let s = ProcessInfo.processInfo.environment["MAGPIE_SALT"] { salts = [s] }
        guard keys.count == salts.count else { throw ValidationError("give as many --salt as --key") }
        for (k, s) in zip(keys, salts) {
            guard let pair = ServiceConfiguration.SigningKey(hexKey: k, hexSalt: s) else {
                throw ValidationError("--key and --salt must be hex")
            }
            configuration.keys.append(pair)
        }
        // With thumbor's URLs at the root and no --path-prefix, no imgproxy URL is answered: its key
        // is not asked for.
        let imgproxyAnswered = thumbor.thumborConfig == nil || paths.pathPrefix != nil
        guard !configuration.keys.isEmpty || allowUnsigned || !imgproxyAnswered else {
            throw ValidationError("no signing key: give --key and --salt, or --allow-unsigned")
        }
        guard (8...32).contains(signatureSize) else { throw ValidationError("--signature-size must be 8 to 32") }
        configuration.signatureSize = signatureSize
        configuration.allowsUnsigned = allowUnsigned && configuration.keys.isEmpty
        try paths.apply(to: &configuration)
        configuration.ttl = ttl
        configuration.autoWebP = autoWebp
        configuration.maxResultDimension = maxResultDimension
        configuration.allowedSources = allowedSources
        configuration.nodeName = nodeName
        guard ServiceConfiguration.isMetricsNamespace(metricsNamespace) else {
            throw ValidationError("--metrics-namespace must be letters, digits, _ and : (not a digit first)")
        }
        configuration.metricsNamespace = metricsNamespace
        guard maxInflight > 0, maxSrcPixels > 0, maxFrames > 0, maxFramePixels > 0, requestTimeout > 0,
            maxAnimationFrames > 0, maxAnimationFramePixels >= 0
        else {
            throw ValidationError("limits must be positive")
        }
        // imgproxy's IMGPROXY_REQUESTS_QUEUE_SIZE: the workers plus the queue are answered at once,
        // more are 429. (imgproxy's 0 is no limit; Magpie keeps --max-inflight then.)
        guard requestsQueueSize >= 0 else { throw ValidationError("--requests-queue-size cannot be negative") }
        let workerCount = workers ?? ProcessInfo.processInfo.activeProcessorCount
        configuration.maxInFlight = requestsQueueSize > 0 ? workerCount + requestsQueueSize : maxInflight
        configuration.maxSourcePixels = maxSrcPixels
        configuration.maxFrames = maxFrames
        configuration.maxAnimationFrames = maxAnimationFrames
        configuration.maxAnimationFramePixels = maxAnimationFramePixels == 0 ? .max : maxAnimationFramePixels
        configuration.maxFramePixels = maxFramePixels
        configuration.requestTimeout = requestTimeout
        guard !(fast && noShrinkOnLoad) else {
            throw ValidationError("--fast and --no-shrink-on-load ask for opposites")
        }
        configuration.decodeQuality = noShrinkOnLoad ? .full : fast ? .fast : .standard
        configuration.linearLight = linearColorspace
        configuration.keepsColorProfile = keepColorProfile
        try applyOutputDefaults(&configuration)
        guard maxSigma >= 0, maxSigma <= 100 else { throw ValidationError("--max-sigma must be 0–100") }
        configuration.maxSigma = maxSigma
        guard variantMemoryLimit >= 0 else { throw ValidationError("--variant-memory-limit cannot be negative") }
        configuration.variantMemoryLimit = variantMemoryLimit
        var download = ImageDownloader.Config(
            timeout: .seconds(downloadTimeout), connectTimeout: .seconds(connectTimeout), maxRedirects: maxRedirects,
            maxBodySize: maxSrcBytes)
        guard (0...3600).contains(originKeepAliveTimeout) else {
            throw ValidationError("--origin-keep-alive-timeout must be 0–3600 seconds")
        }
        download.keepAliveTimeout = originKeepAliveTimeout == 0 ? nil : .seconds(originKeepAliveTimeout)
        guard maxDownloads > 0 else { throw ValidationError("--max-downloads must be positive") }
        download.maxConcurrentDownloads = maxDownloads
        download.propagatesTraceContext = tracing.imgproxy.otelPropagateExternal
        var networks = allowedNetworks
        if allowLoopbackSources { networks += ["127.0.0.0/8", "::1/128"] }
        if allowPrivateSources { networks += ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"] }
        if allowLinkLocalSources { networks += ["169.254.0.0/16", "fe80::/10"] }
        do {
            download.addressPolicy = try AddressPolicy.publicOnly.allowing(networks: networks)
        } catch {
            throw ValidationError("--allow-network: \(error)")
        }
        var diskConfig = DiskCache.Config(directory: cacheDir, sizeLimit: diskLimit)
        disk.apply(to: &diskConfig)
        let cache = try ImageCache(memory: .init(totalCostLimit: memoryLimit), disk: diskConfig)
        let transports = try sources.apply(to: &configuration, download: &download)
        try headers.apply(to: &configuration, download: &download)
        try formats.apply(to: &configuration)
        if let problem = configuration.cookieProblem() { throw ValidationError(problem) }
        let manager = ImageManager(cache: cache, downloader: ImageDownloader(config: download, transports: transports))
        {
            $0.processingConcurrency = workers
        }
        configuration.fallback = try await fallback.load(manager: manager, maxBytes: maxSrcBytes)
        configuration.watermark = try await watermark.load(manager: manager, maxBytes: maxSrcBytes)
        return ImageService(
            manager: manager, configuration: configuration, accessLog: accessLog ? Logger(label: "magpie.access") : nil,
            metrics: metrics ?? NOOPMetricsHandler.instance)
    }

    /// Quality, format quality, the secret, auto-rotate, thumbnails, copyright, skipped formats.
    func applyOutputDefaults(_ configuration: inout ServiceConfiguration) throws {
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be 1–100") }
        configuration.quality = quality
        for pair in formatQuality {
            let parts = pair.split(separator: "=").map(String.init)
            guard parts.count == 2, let format = ImageFormat(fileExtension: parts[0]), format.isEncodable,
                let q = Int(parts[1]), (1...100).contains(q)
            else { throw ValidationError("--format-quality FORMAT=1…100 (jpg, png, webp, avif, jxl): \(pair)") }
            configuration.formatQuality[format.fileExtension] = q
        }
        let secret = self.secret ?? ProcessInfo.processInfo.environment["MAGPIE_SECRET"]
        if let secret {
            guard !secret.isEmpty, secret.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
                throw ValidationError("--secret must be printable ASCII without spaces")
            }
            configuration.secret = secret
        }
        configuration.autoRotate = autoRotate
        guard (0...10).contains(avifSpeed) else { throw ValidationError("--avif-speed must be 0–10") }
        if autoAvif && !ImageFormat.avif.isEncodable {
            throw ValidationError("--auto-avif: this build cannot write AVIF (libavif is not there)")
        }
        (configuration.autoAVIF, configuration.avifSpeed) = (autoAvif, avifSpeed)
        configuration.enforcesThumbnail = enforceThumbnail
        configuration.keepsCopyright = keepCopyright
        for name in skipProcessing.flatMap({ $0.split(separator: ",").map(String.init) }) {
            guard let format = ImageFormat(fileExtension: name) else {
                throw ValidationError("--skip-processing: unknown format \(name)")
            }
            configuration.skipProcessingFormats.insert(format.fileExtension)
        }
    }
}
