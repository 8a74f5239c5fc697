import ArgumentParser
import Hummingbird
import HummingbirdCore
import Logging
import Magpie
import MagpieHummingbird
import MagpieServer
import Metrics
import Prometheus
import ServiceLifecycle

#if canImport(Glibc)
    import Glibc
#endif

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `magpie-server`: the image service over HTTP (Hummingbird 2).
@main
struct ServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "magpie-server",
        abstract: "An imgproxy-compatible image proxy and thumbnail server with a two-tier cache.")

    @Option(name: .long, help: "Address and port to listen on.")
    var bind = "127.0.0.1:8080"
    @Option(name: .long, help: "Signing key in hex (repeatable, paired with --salt in order; or MAGPIE_KEY).")
    var key: [String] = []
    @Option(name: .long, help: "Signing salt in hex (repeatable; or MAGPIE_SALT).")
    var salt: [String] = []
    @Option(name: .long, help: "Bytes of the HMAC a signature keeps (8 to 32).")
    var signatureSize = 32
    @Flag(name: .long, help: "Serve unsigned URLs (only without a key).")
    var allowUnsigned = false
    @Option(name: .long, help: "The cache folder.")
    var cacheDir: String
    @Option(name: .long, help: "Disk cache limit in bytes on disk: files' blocks, the index (0 = none).")
    var diskLimit = 10 << 30
    @OptionGroup(title: "Disk cache") var disk: DiskOptions
    @Option(name: .long, help: "Memory cache limit in bytes of decoded pixels.")
    var memoryLimit = 256 << 20
    @Option(name: .customLong("allow-network"), help: "A CIDR block sources may resolve to (repeatable).")
    var allowedNetworks: [String] = []
    @Option(name: .customLong("allowed-source"), help: "A prefix every source URL must start with (repeatable).")
    var allowedSources: [String] = []
    @OptionGroup(title: "Paths and presets") var paths: PathOptions
    @OptionGroup(title: "Answers and origin requests") var headers: HeaderOptions
    @OptionGroup(title: "Fallback image") var fallback: FallbackOptions
    @OptionGroup(title: "Watermark") var watermark: WatermarkOptions
    @OptionGroup(title: "Formats for the client") var formats: FormatOptions
    @OptionGroup(title: "Sources beyond http(s)") var sources: SourceOptions
    @OptionGroup(title: "Traces") var tracing: TracingOptions
    @OptionGroup(title: "thumbor's URLs") var thumbor: ThumborOptions
    @Option(name: .long, help: "Cache-Control max-age of results, in seconds.")
    var ttl = 31_536_000
    @Flag(name: .long, help: "Serve WebP to clients that accept it when the URL names no format.")
    var autoWebp = false
    @Option(name: .long, help: "Largest width or height a URL may ask for.")
    var maxResultDimension = 8192
    @Option(name: .long, help: "Largest source body in bytes.")
    var maxSrcBytes = 32 << 20
    @Option(name: .long, help: "Connect timeout in seconds.")
    var connectTimeout = 3
    @Option(name: .long, help: "Seconds an idle connection to an origin is kept for the next request (0: none).")
    var originKeepAliveTimeout = 90
    @Option(name: .long, help: "Download timeout in seconds, redirects included.")
    var downloadTimeout = 10
    @Option(name: .long, help: "Redirects followed at most.")
    var maxRedirects = 5
    @Option(name: .long, help: "Downloads at a time, all origins together (they never hold a worker).")
    var maxDownloads = 64
    @Option(name: .long, help: "Decodes and encodes at a time (default: the core count).")
    var workers: Int?
    @Option(name: .long, help: "Sent as X-Magpie-Node.")
    var nodeName: String?
    @Option(
        name: .long,
        help: """
            Client connections open at once; at it, the one that has waited longest for a request \
            head is closed to admit the next (busy ones never are).
            """)
    var maxConnections = 1024
    @Option(
        name: .long,
        help: """
            Seconds a connection gets to send a complete request head, from accept or from the end \
            of its previous response; then it is closed.
            """)
    var readRequestTimeout = 10.0
    @Option(name: .long, help: "Seconds a response gets to be written whole before the connection is closed (0: none).")
    var writeResponseTimeout = 10.0
    @Option(name: .long, help: "Seconds a connection may stay open with no request or response progress.")
    var idleTimeout = 30
    @Flag(name: .long, help: "Serve Prometheus metrics at /metrics.")
    var metrics = false
    @Option(name: .long, help: "Serve /metrics on this ADDRESS:PORT only, apart from images (implies --metrics).")
    var metricsBind: String?
    @Option(name: .long, help: "What metric names begin with, before _ (empty: nothing).")
    var metricsNamespace = "magpie"
    @Option(name: .long, help: "Seconds in-flight requests get to finish after SIGTERM.")
    var gracefulTimeout = 20
    @Option(name: .long, help: "Seconds /health answers 503 before the listener closes, after SIGTERM.")
    var shutdownDelay = 0
    @Option(name: .long, help: "Image requests answered at once; more are 429 at once.")
    var maxInflight = 256
    @Option(
        name: .long, help: "Requests that may wait for a worker: --max-inflight becomes the workers plus it (0: keep).")
    var requestsQueueSize = 0
    @Option(name: .long, help: "Bytes of encoded variants kept in memory (0: none), each for at most 60 s.")
    var variantMemoryLimit = 16 << 20
    @Option(name: .long, help: "Largest source in pixels, from its header before decoding.")
    var maxSrcPixels = 50_000_000
    @Option(name: .long, help: "Most frames a source may declare; more is 422.")
    var maxFrames = 1000
    @Option(
        name: .long,
        help: "Frames of an animation processed, from the first (imgproxy's meaning; 1: animations become stills).")
    var maxAnimationFrames = 1000
    @Option(name: .long, help: "Largest frame of an animation in pixels (0: no limit besides --max-src-pixels).")
    var maxAnimationFramePixels = 0
    @Option(name: .long, help: "Most frames × width × height a source may declare.")
    var maxFramePixels = 1_000_000_000
    @Flag(name: .long, help: "Shrink on load only to just past the output (as thumbor), not twice it (as imgproxy).")
    var fast = false
    @Flag(name: .long, help: "No shrink-on-load: decode JPEG and WebP sources whole (slower, the most detail).")
    var noShrinkOnLoad = false
    @Flag(name: .long, help: "Resize in linear light: fine light-and-dark detail keeps its brightness; slower.")
    var linearColorspace = false
    @Flag(
        name: .long,
        help: "Keep sources' colour profiles unless a URL says scp:1 (default: convert to sRGB, as imgproxy).")
    var keepColorProfile = false
    @Option(name: .long, help: "Seconds a request may take in all; past it the answer is 503.")
    var requestTimeout = 20.0
    @Option(name: .long, help: "Largest `bl` and `sh` sigma a URL may ask for (up to 100).")
    var maxSigma = 20.0
    @Flag(inversion: .prefixedNo, help: "Log a line per request on standard error (id, status, bytes, ms, cache).")
    var accessLog = true
    @Option(name: .long, help: "The least level logged: debug, info, warn or error (imgproxy's names).")
    var logLevel = "info"
    @Option(
        name: .long, help: "How log lines are written: pretty, structured (logfmt), json or gcp (imgproxy's names).")
    var logFormat = "pretty"
    @Option(name: .long, help: "Quality of results where a URL gives none (1–100).")
    var quality = 80
    @Option(name: .long, help: "Quality for one output format where a URL gives none, FORMAT=Q (repeatable).")
    var formatQuality: [String] = []
    @Option(name: .long, help: "Answer only requests with `Authorization: Bearer SECRET` (or MAGPIE_SECRET).")
    var secret: String?
    @Flag(name: .long, help: "Let sources resolve to loopback addresses (127.0.0.0/8, ::1).")
    var allowLoopbackSources = false
    @Flag(name: .long, help: "Let sources resolve to private addresses (10/8, 172.16/12, 192.168/16, fc00::/7).")
    var allowPrivateSources = false
    @Flag(name: .long, help: "Let sources resolve to link-local addresses (169.254/16, fe80::/10).")
    var allowLinkLocalSources = false
    @Flag(inversion: .prefixedNo, help: "Apply sources' EXIF orientation unless a URL says ar:0.")
    var autoRotate = true
    @Flag(name: .long, help: "Decode JPEGs' EXIF thumbnails where large enough for the output, unless eth:0.")
    var enforceThumbnail = false
    @Flag(name: .long, help: "Write sources' EXIF copyright and artist into results, unless kcr:0.")
    var keepCopyright = false
    @Option(name: .long, help: "A source format answered unprocessed when the output is its own (repeatable).")
    var skipProcessing: [String] = []
    @Flag(
        name: .long, help: "Serve AVIF to clients that accept it when the URL names no format (wins over --auto-webp).")
    var autoAvif = false
    @Option(name: .long, help: "The AV1 encoder's speed for AVIF results, 0 (slowest, smallest) – 10.")
    var avifSpeed = 8

    /// Parses the arguments given and those imgproxy's variables stand for (``ImgproxyEnvironment``).
    static func main() async {
        MallocTuning.apply(environment: ProcessInfo.processInfo.environment)
        let given = Array(CommandLine.arguments.dropFirst())
        var extra: (arguments: [String], notes: [String])
        do {
            extra = try ImgproxyEnvironment.arguments(ProcessInfo.processInfo.environment, given: given)
            let conf = try ThumborOptions.preload(given: given)
            extra = (extra.arguments + conf.arguments, extra.notes + conf.notes)
        } catch let error as ImgproxyEnvironment.Failure {
            Self.warn(error.description)
            Glibc.exit(64)
        } catch {
            Self.warn("\(error)")
            Glibc.exit(64)
        }
        for note in extra.notes { Self.warn(note) }
        do {
            var command = try parseAsRoot(given + extra.arguments)
            if let server = command as? ServerCommand {
                try await server.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }

    /// A line on standard error.
    static func warn(_ text: String) {
        var line = "magpie-server: \(text)\n"
        line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }

    func run() async throws {
        let levels: [String: Logger.Level] = ["debug": .debug, "info": .info, "warn": .warning, "error": .error]
        guard let level = levels[logLevel] else { throw ValidationError("--log-level: debug, info, warn or error") }
        guard let format = LogFormat.table[logFormat] else { throw ValidationError("--log-format: \(LogFormat.names)") }
        LoggingSystem.bootstrap {
            var handler = LineLogHandler(label: $0, format: format)
            handler.logLevel = level
            return handler
        }
        let (host, port) = try Self.address(bind)
        guard maxConnections > 0, idleTimeout > 0, readRequestTimeout > 0, readRequestTimeout <= 3600,
            (0...3600).contains(writeResponseTimeout)
        else {
            throw ValidationError(
                "--max-connections, --idle-timeout, --read-request-timeout (and --write-response-timeout, or 0) must be positive"
            )
        }
        let connections = ConnectionGuard(
            maxConnections: maxConnections, readRequestTimeout: .nanoseconds(Int64(readRequestTimeout * 1e9)),
            writeResponseTimeout: writeResponseTimeout > 0 ? .nanoseconds(Int64(writeResponseTimeout * 1e9)) : nil)
        let metricsAddress = try metricsBind.map(Self.address)
        let metrics = self.metrics || metricsAddress != nil
        var endpoint: MetricsEndpoint?
        var factory: (any MetricsFactory)?
        let registry = PrometheusCollectorRegistry()
        if metrics { factory = PrometheusMetricsFactory(registry: registry) }
        let service = try await makeService(metrics: factory)
        if metrics { endpoint = MetricsEndpoint(registry: registry, service: service) }
        // With a listener of their own, metrics are not served beside the images.
        let metricsEndpoint = metricsAddress == nil ? endpoint : nil
        let app = Application(
            responder: CallbackResponder { (request: Request, _: BasicRequestContext) in
                await Adapter.respond(request, service, metrics: metricsEndpoint)
            },
            server: .http1(
                configuration: .init(
                    additionalChannelHandlers: connections.channelHandlers(), idleTimeout: .seconds(Int64(idleTimeout)))
            ),
            configuration: .init(
                address: .hostname(host, port: port), serverName: "magpie",
                availableConnectionsDelegate: connections.availableConnections),
            onServerRunning: { channel in
                print("magpie-server listening on \(channel.localAddress?.description ?? bind)")
                fflush(nil)
            })
        // The drain service is listed last, so a graceful shutdown reaches it first (in reverse
        // order): /health turns 503, then the server stops accepting and finishes in-flight work.
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [.init(service: app)]
        // First, so it stops last and sends the spans of the requests finished before it.
        if let exporter = try tracing.bootstrap(environment: ProcessInfo.processInfo.environment) {
            services.insert(.init(service: exporter), at: 0)
        }
        if let (metricsHost, metricsPort) = metricsAddress, let endpoint {
            let metricsApp = Application(
                responder: CallbackResponder { (request: Request, _: BasicRequestContext) in
                    await Adapter.metricsOnly(request, endpoint)
                },
                configuration: .init(address: .hostname(metricsHost, port: metricsPort), serverName: "magpie"),
                onServerRunning: { channel in
                    print("magpie-server metrics on \(channel.localAddress?.description ?? "?")")
                    fflush(nil)
                })
            services.append(.init(service: metricsApp))
        }
        services.append(
            .init(
                service: DrainService(
                    service: service, delay: .seconds(shutdownDelay), logger: Logger(label: "magpie.server"))))
        var group = ServiceGroupConfiguration(
            services: services,
            gracefulShutdownSignals: [.sigterm, .sigint], logger: Logger(label: "magpie.server"))
        group.maximumGracefulShutdownDuration = .seconds(gracefulTimeout + shutdownDelay)
        try await ServiceGroup(configuration: group).run()
        await service.manager.cache.shutdown()
        try await service.manager.downloader.shutdown()
    }

    static func address(_ text: String) throws -> (String, Int) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (0...65535).contains(port)
        else { throw ValidationError("--bind ADDRESS:PORT") }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return (host, port)
    }
}
