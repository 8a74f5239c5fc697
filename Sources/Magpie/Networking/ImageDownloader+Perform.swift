import Logging

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One download: attempts with retries and back-off, redirects followed under the rules of
/// `WebURL`, and the response checked (status, size, image body).
extension ImageDownloader {
    func perform(
        _ request: DataRequest, key: String, retry: RetryStrategy?,
        redirectHandler: (@Sendable (DataResponse, DataRequest) async -> DataRequest?)?,
        context: Coalescer<String, DownloadOutcome>.Context
    ) async throws -> DownloadOutcome {
        let started = ContinuousClock.now
        let conditional =
            request.headers.value(for: "If-None-Match") != nil || request.headers.value(for: "If-Modified-Since") != nil
        stats.withLock {
            $0.downloads += 1
            if conditional { $0.conditionalRequests += 1 }
        }
        emit(.willDownload(request.url))
        var attempt = 1
        var state = AttemptState(resumable: config.resumesDownloads && ResumableBody.mayResume(request))
        func finish(_ bytes: Int, _ error: ImageDownloadError?) {
            stats.withLock { s in
                s.bytes += bytes
                s.resumes += state.resumes
                s.resumedBytes += state.resumedBytes
                if error != nil { s.failures += 1 }
            }
            emit(
                .didFinish(
                    DownloadMetrics(
                        url: request.url, bytes: bytes, duration: ContinuousClock.now - started,
                        statusCode: state.lastStatus, callers: context.callers(), attempts: attempt,
                        redirects: state.redirects, conditional: conditional, resumedBytes: state.resumedBytes),
                    error: error))
        }
        while true {
            do {
                var outcome = try await attemptOnce(
                    request, redirectHandler: redirectHandler, state: &state, report: context.report)
                outcome.resumedBytes = state.resumedBytes
                finish(outcome.body.count, nil)
                return outcome
            } catch let error as ImageDownloadError {
                if let retry, let delay = retry.delay(beforeRetry: attempt, after: error) {
                    stats.withLock { $0.retries += 1 }
                    emit(.willRetry(request.url, attempt: attempt, delay: delay, error: error))
                    logger.debug(
                        "retrying download",
                        metadata: ["url": "\(request.url)", "attempt": "\(attempt)", "error": "\(error)"])
                    do {
                        try await sleep(delay)
                    } catch {
                        emit(.didCancel(request.url))
                        throw CancellationError()
                    }
                    attempt += 1
                    continue
                }
                if error.isRemembered, let ttl = config.failedURLTTL { remember(key, error, ttl) }
                finish(0, error)
                throw error
            } catch {
                // Cancellation: every caller left.
                emit(.didCancel(request.url))
                throw error
            }
        }
    }

    /// One attempt: the request and its redirects, under the per-host limit, continuing the body
    /// a previous attempt kept when it can.
    func attemptOnce(
        _ first: DataRequest, redirectHandler: (@Sendable (DataResponse, DataRequest) async -> DataRequest?)?,
        state: inout AttemptState, report: @escaping @Sendable (Int, Int?) -> Void
    ) async throws -> DownloadOutcome {
        var request = first
        // The body kept is of a version newer than any the cache holds: ask for its rest alone.
        if state.resume != nil { Self.dropConditions(&request) }
        // Made at the first redirect: most downloads have none.
        var visited: Set<String> = []
        var conditional =
            request.headers.value(for: "If-None-Match") != nil || request.headers.value(for: "If-Modified-Since") != nil
        while true {
            let scheme = request.url.scheme?.lowercased() ?? ""
            guard let transport = transports[scheme] else { throw ImageDownloadError.unsupportedScheme(scheme) }
            let host = request.url.host ?? ""
            stats.withLock { $0.requests += 1 }
            var current = request
            // Only the URL that sent the kept bytes is asked for their rest.
            let ranged = state.resume.map { $0.url == current.url } ?? false
            if ranged, let kept = state.resume { current.headers += kept.rangeFields }
            current.keepsPartialBody = state.resumable
            let sent = current
            // Waiting for a slot, the download's priority (its callers' highest) decides its turn.
            let priority = FlightPriority.current
            var response: DataResponse
            do {
                response = try await hosts.withPermit(for: scheme + "://" + host, priority: priority) {
                    guard let allHosts else { return try await transport.load(sent, progress: report) }
                    return try await allHosts.withPermit(priority: priority) {
                        try await transport.load(sent, progress: report)
                    }
                }
            } catch let cut as DataTransferInterrupted {
                state.keep(cut.partial, ranged: ranged, maxBodySize: sent.maxBodySize)
                throw cut.failure
            }
            state.lastStatus = response.statusCode
            if ranged {
                switch judgeContinuation(response, state: &state, maxBodySize: sent.maxBodySize) {
                case .use(let whole): response = whole
                case .askWhole: continue
                }
            }
            if response.isRedirect, let location = response.headers.value(for: "Location") {
                // Only http(s) to http(s): a `file:` (or any other) target is refused with one
                // error that names nothing of it.
                let next = try WebURL.redirectTarget(
                    status: response.statusCode, location: location, from: request.url)
                state.redirects += 1
                if state.redirects > config.maxRedirects {
                    throw ImageDownloadError.tooManyRedirects(config.maxRedirects)
                }
                var nextRequest = request
                nextRequest.url = next
                // Credentials stay with their origin (scheme, host and port).
                nextRequest.headers = WebURL.headersForRedirect(
                    request.headers, from: request.url, to: next, sensitive: config.sensitiveHeaders)
                if let redirectHandler {
                    guard let decided = await redirectHandler(response, nextRequest) else {
                        throw ImageDownloadError.redirectRefused(status: response.statusCode, location: location)
                    }
                    nextRequest = decided
                    guard WebURL.isWebScheme(nextRequest.url.scheme) else {
                        throw ImageDownloadError.redirectNotAllowed(status: response.statusCode)
                    }
                    nextRequest.url = try Self.normalized(nextRequest.url)
                }
                if visited.isEmpty { visited.insert(first.url.absoluteString) }
                guard visited.insert(nextRequest.url.absoluteString).inserted else {
                    throw ImageDownloadError.redirectLoop(nextRequest.url.absoluteString)
                }
                request = nextRequest
                continue
            }
            // A 304 that names another representation must not freshen the stored one (RFC 9111
            // §4.3.4): ask once more, unconditionally, and take that answer (a 304 to it is a bad
            // status, not another round).
            if response.statusCode == 304, conditional, Self.contradicts(response, conditionalRequest: request) {
                conditional = false
                Self.dropConditions(&request)
                logger.notice(
                    "a 304 named another version than the cached one: asking again unconditionally",
                    metadata: ["url": "\(request.url)"])
                continue
            }
            // 304 answers a conditional request only: the cache's copy is current. Its headers
            // may update the validators and the caching fields; it has no body.
            if response.statusCode == 304, conditional {
                stats.withLock { $0.notModified += 1 }
                let validators = ResponseValidators(
                    etag: response.headers.value(for: "ETag") ?? first.headers.value(for: "If-None-Match"),
                    lastModified: response.headers.value(for: "Last-Modified")
                        ?? first.headers.value(for: "If-Modified-Since"),
                    contentType: response.headers.value(for: "Content-Type"))
                return DownloadOutcome(
                    body: [], finalURL: request.url, statusCode: 304, format: .unknown, validators: validators,
                    cacheHeaders: HTTPCacheHeaders(response.headers, statusCode: response.statusCode),
                    receivedAt: clock.now())
            }
            guard config.acceptableStatusCodes.contains(response.statusCode) else {
                let retryAfter = response.headers.value(for: "Retry-After").flatMap {
                    RetryStrategy.parseRetryAfter($0, now: clock.now())
                }
                throw ImageDownloadError.badStatus(code: response.statusCode, retryAfter: retryAfter)
            }
            let contentType = response.headers.value(for: "Content-Type")
            let format = response.body.withUnsafeBytes { ImageFormat(sniffing: $0) }
            if config.requiresImageBody && format == .unknown {
                throw ImageDownloadError.notAnImage(contentType: contentType)
            }
            let validators = ResponseValidators(
                etag: response.headers.value(for: "ETag"), lastModified: response.headers.value(for: "Last-Modified"),
                contentType: contentType)
            return DownloadOutcome(
                body: response.body, finalURL: request.url, statusCode: response.statusCode, format: format,
                validators: validators,
                cacheHeaders: HTTPCacheHeaders(response.headers, statusCode: response.statusCode),
                receivedAt: clock.now())
        }
    }
}
