import Logging
import Magpie
import MagpieImage
import Metrics

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The image service, framework-neutral: takes a request's method, raw target and headers, and
/// answers with status, headers and body. An imgproxy-compatible URL is parsed and its signature
/// verified, its options checked (all before anything is fetched), and the variant retrieved
/// through the manager's one pipeline for bytes: an encoded variant on disk is served without a
/// decode, a new size of a known source costs no download, and identical requests share one
/// download and one encode.
///
/// Mount it under any HTTP server: the `magpie-server` executable does with Hummingbird.
public final class ImageService: Sendable {
    public let manager: ImageManager
    public let configuration: ServiceConfiguration
    let now: @Sendable () -> Double
    /// Image requests being answered now (see ``ServiceConfiguration/maxInFlight``).
    private let inFlight = Locked(0)
    /// The access log: one line per request at `info` (id, method, status, bytes, milliseconds,
    /// cache result), never the path or the source URL.
    private let accessLog: Logger?
    private let metrics: ServiceMetrics
    let variants: VariantMemory
    let plans = PlanMemo()

    /// - Parameters:
    ///   - manager: the caches and the downloader the service answers from (its downloader's
    ///     address policy judges every source).
    ///   - configuration: keys, limits, presets and the imgproxy settings.
    ///   - accessLog: where each request is logged (`nil`: nowhere).
    ///   - metrics: where the service's metrics go (default: swift-metrics' bootstrapped system).
    ///   - now: seconds since 1970, for `exp` (tests give their own).
    public init(
        manager: ImageManager, configuration: ServiceConfiguration, accessLog: Logger? = nil,
        metrics: (any MetricsFactory)? = nil,
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        self.manager = manager
        self.configuration = configuration
        self.accessLog = accessLog
        self.metrics = ServiceMetrics(
            factory: metrics ?? MetricsSystem.factory, namespace: configuration.metricsNamespace)
        self.variants = VariantMemory(
            limit: configuration.variantMemoryLimit, lifetime: configuration.variantMemoryLifetime)
        self.now = now
    }

    /// Image requests being answered now.
    public var requestsInFlight: Int { inFlight.withLock { $0 } }

    private let draining = Locked(false)
    /// From now on `/health` answers 503 `draining`, so a balancer stops sending requests while
    /// the server finishes the ones it has (call it when graceful shutdown begins).
    public func beginDraining() { draining.withLock { $0 = true } }
    public var isDraining: Bool { draining.withLock { $0 } }

    public func respond(to request: ServiceRequest) async -> ServiceResponse {
        let started = ContinuousClock.now
        let id = Self.requestID(request.header("X-Request-ID"))
        let response = await traced(request) { await respond(request, id: id) }
        metrics.record(
            route: isHealthCheck(request) ? "health" : "image", response: response,
            duration: ContinuousClock.now - started)
        if let accessLog {
            let ms = (ContinuousClock.now - started) / .milliseconds(1)
            accessLog.info(
                "request",
                metadata: [
                    "id": "\(id)",
                    "method": "\(request.method == "HEAD" ? "HEAD" : request.method == "GET" ? "GET" : "other")",
                    "status": "\(response.status)", "bytes": "\(response.header("Content-Length") ?? "0")",
                    "ms": "\((ms * 10).rounded() / 10)", "cache": "\(response.header("X-Magpie-Cache") ?? "-")",
                ])
        }
        return response
    }

    private func respond(_ request: ServiceRequest, id: String) async -> ServiceResponse {
        let node = configuration.nodeName
        if request.method == "OPTIONS", let origin = configuration.allowOrigin {
            return ServiceResponse(
                status: 200, headers: [("X-Request-ID", id), ("Content-Length", "0")] + Self.cors(origin))
        }
        guard request.method == "GET" || request.method == "HEAD" else {
            metrics.refused(.methodNotAllowed)
            return ServiceError.methodNotAllowed.response(requestID: id, node: node)
        }
        let admitted = inFlight.withLock { n -> Bool in
            guard let limit = configuration.maxInFlight, n >= limit, !isHealthCheck(request) else {
                n += 1
                return true
            }
            return false
        }
        guard admitted else {
            metrics.refused(.busy)
            return ServiceError.busy.response(requestID: id, node: node)
        }
        metrics.inFlight.increment()
        defer {
            inFlight.withLock { $0 -= 1 }
            metrics.inFlight.decrement()
        }
        var response: ServiceResponse
        switch await answer(request, id: id) {
        case .success(let r): response = r
        case .failure(let e):
            metrics.refused(e)
            response = e.response(requestID: id, node: node, status: isThumbor(request) ? e.thumborStatus : e.status)
        }
        if request.method == "HEAD" { response.body = [] }
        if let origin = configuration.allowOrigin, !isHealthCheck(request) { response.headers += Self.cors(origin) }
        return response
    }

    /// Whether `request` asks for `/health` (or the configured health path), under the prefix.
    func isHealthCheck(_ request: ServiceRequest) -> Bool {
        if let t = configuration.thumbor, isThumbor(request) { return t.isHealthCheck(request.path) }
        guard let target = configuration.paths.unprefixed(request.target) else { return false }
        return isHealthPath(ServiceRequest(method: request.method, target: target).path)
    }

    private func isHealthPath(_ path: Substring) -> Bool {
        path == "/health"
            || (!configuration.paths.healthCheckPath.isEmpty && path == configuration.paths.healthCheckPath)
    }

    private func answer(_ request: ServiceRequest, id: String) async -> Result<ServiceResponse, ServiceError> {
        let thumbor = isThumbor(request)
        guard let target = thumbor ? request.target : configuration.paths.unprefixed(request.target) else {
            return .failure(.notFound)
        }
        var request = request
        request.target = target
        if thumbor, configuration.thumbor?.isHealthCheck(request.path) == true { return .success(thumborHealth(id)) }
        if !thumbor, isHealthPath(request.path) {
            var headers = standardHeaders(id, "text/plain")
            headers.append(("Cache-Control", "no-store"))
            guard !isDraining else {
                return .success(ServiceResponse(status: 503, headers: headers, body: Array("draining\n".utf8)))
            }
            return .success(ServiceResponse(status: 200, headers: headers, body: Array("ok\n".utf8)))
        }
        if let secret = configuration.secret, !Self.bearer(request.header("Authorization"), matches: secret) {
            return .failure(.badSecret)
        }
        var plan: Plan
        do {
            plan = try memoizedPlan(request, thumbor: thumbor)
        } catch {
            return .failure(error)
        }
        if plan.source.scheme == "local", let root = configuration.localRoot,
            let stamp = await LocalRootLoader.stamp(plan.source, beneath: root)
        {
            plan = plan.stamped(stamp)
        }
        if let jar = configuration.cookiePassthrough, let cookie = jar.header(for: plan.source, request: request) {
            plan = plan.withCookie(cookie) { [manager, source = plan.source] in
                manager.cacheKey(for: .network(source), options: $0)
            }
        }
        if let pass = plan.passThrough {
            switch await passThrough(plan, pass) {
            case .success(let source?):
                return .success(success(source, cache: "source", plan: plan, request: request, id: id))
            case .success(nil): break
            case .failure(let e):
                if let answer = await fallback(for: plan, after: e, request: request, id: id) {
                    return .success(answer)
                }
                return .failure(e)
            }
        }
        let key = plan.key
        if let hit = variants.variant(forKey: key) {
            return .success(success(hit, cache: "hit", plan: plan, request: request, id: id))
        }
        let result: RetrieveDataResult
        switch await retrieve(plan) {
        case .success(let r): result = r
        case .failure(let e):
            if let answer = await fallback(for: plan, after: e, request: request, id: id) { return .success(answer) }
            return .failure(e)
        }
        let cache = result.coalesced ? "coalesced" : result.cacheType == .disk ? "hit" : "miss"
        return .success(
            success(variants.store(result, forKey: key), cache: cache, plan: plan, request: request, id: id))
    }

    /// The variant (or with `options`, what they ask for) through the manager, within ``ServiceConfiguration/requestTimeout`` (past it:
    /// 503, while a flight other requests share goes on for them).
    func retrieve(_ plan: Plan, options: ImageOptions? = nil) async -> Result<RetrieveDataResult, ServiceError> {
        let (manager, options) = (self.manager, options ?? plan.options)
        let work: @Sendable () async -> Result<RetrieveDataResult, ServiceError> = {
            do throws(ImageRetrieveError) {
                return .success(try await manager.retrieveData(with: .network(plan.source), options: options))
            } catch {
                return .failure(ServiceError(error))
            }
        }
        guard let seconds = configuration.requestTimeout else { return await work() }
        return await Deadline.run(seconds: seconds, work) ?? .failure(.requestTimeout)
    }

    func standardHeaders(_ id: String, _ type: String) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = [
            ("Content-Type", type), ("X-Content-Type-Options", "nosniff"), ("X-Request-ID", id),
        ]
        if let node = configuration.nodeName { headers.append(("X-Magpie-Node", node)) }
        if type == Self.svgType { headers.append(("Content-Security-Policy", Self.svgPolicy)) }
        return headers
    }

    /// An SVG answered as it is (`raw`, `skp:svg`) is a document that could run a hostile origin's
    /// script on this server's origin: it goes with a policy that lets it run nothing and load
    /// nothing (imgproxy's `IMGPROXY_SANITIZE_SVG`, by a header rather than a rewrite).
    static let svgType = "image/svg+xml"
    static let svgPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox"

    static func contentType(_ format: ImageFormat) -> String { format.mediaType ?? "application/octet-stream" }

    /// The caller's request ID when it is `[A-Za-z0-9_-]{1,128}`, else a new one.
    static func requestID(_ given: String?) -> String {
        if let given, (1...128).contains(given.utf8.count),
            given.utf8.allSatisfy({ c in
                (0x30...0x39).contains(c) || (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) || c == 0x2D
                    || c == 0x5F
            })
        {
            return given
        }
        return RequestIDs.next()
    }

    /// Whether `header` is `Bearer <secret>`, compared in time independent of where they differ.
    static func bearer(_ header: String?, matches secret: String) -> Bool {
        guard let header, header.utf8.count == secret.utf8.count + 7, header.hasPrefix("Bearer ") else { return false }
        var diff: UInt8 = 0
        for (a, b) in zip(header.utf8.dropFirst(7), secret.utf8) { diff |= a ^ b }
        return diff == 0
    }
}
