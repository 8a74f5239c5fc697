/// The request and retry builders: transport settings, which never change the cache key.
extension ImageOptionsMaker {
    /// `request`: transport settings (they never change the cache key).
    public struct RequestMaker {
        let maker: ImageOptionsMaker

        @discardableResult
        public func timeout(_ timeout: Duration, fileID: String = #fileID, line: Int = #line) -> RequestMaker {
            maker.record(.timeout, SourceLine(fileID: fileID, line: line)) { $0.request.timeout = timeout }
            return self
        }
        /// A header field; the same name twice is an error.
        @discardableResult
        public func header(_ name: String, _ value: String, fileID: String = #fileID, line: Int = #line)
            -> RequestMaker
        {
            maker.record(.header(name.lowercased()), SourceLine(fileID: fileID, line: line)) {
                $0.request.headers.set(name, value)
            }
            return self
        }
        /// Changes the request before it goes out (sign it); may suspend and may fail.
        @discardableResult
        public func modifier(
            fileID: String = #fileID, line: Int = #line,
            _ modify: @escaping @Sendable (DataRequest) async throws -> DataRequest
        ) -> RequestMaker {
            maker.record(.modifier, SourceLine(fileID: fileID, line: line)) {
                $0.request.modifier = RequestModifier(modify)
            }
            return self
        }
        /// Decides each redirect (return `nil` to refuse it).
        @discardableResult
        public func redirects(
            fileID: String = #fileID, line: Int = #line,
            _ decide: @escaping @Sendable (DataResponse, DataRequest) async -> DataRequest?
        ) -> RequestMaker {
            maker.record(.redirects, SourceLine(fileID: fileID, line: line)) {
                $0.request.redirectHandler = RedirectHandler(decide)
            }
            return self
        }
        @discardableResult
        public func priority(_ priority: TaskPriority, fileID: String = #fileID, line: Int = #line) -> RequestMaker {
            maker.record(.priority, SourceLine(fileID: fileID, line: line)) { $0.request.priority = priority }
            return self
        }
        /// Use this downloader instead of the manager's.
        @discardableResult
        public func downloader(_ downloader: ImageDownloader, fileID: String = #fileID, line: Int = #line)
            -> RequestMaker
        {
            maker.record(.downloader, SourceLine(fileID: fileID, line: line)) { $0.request.downloader = downloader }
            return self
        }
        /// Download even when the URL failed recently.
        @discardableResult
        public func ignoringFailedURLMemory(fileID: String = #fileID, line: Int = #line) -> RequestMaker {
            maker.record(.ignoringFailedURLMemory, SourceLine(fileID: fileID, line: line)) {
                $0.request.ignoresFailedURLMemory = true
            }
            return self
        }
        public var and: RequestMaker { self }
        public var with: RequestMaker { self }
    }

    /// `retry`: `make.retry.times(3).with.backoff(.exponential(.milliseconds(200)))`.
    public struct RetryMaker {
        let maker: ImageOptionsMaker

        @discardableResult
        public func times(_ count: Int, fileID: String = #fileID, line: Int = #line) -> RetryMaker {
            maker.record(.retryTimes, SourceLine(fileID: fileID, line: line)) {
                var s = $0.retry ?? RetryStrategy(maxRetries: 0)
                s.maxRetries = max(0, count)
                $0.retry = s
            }
            return self
        }
        @discardableResult
        public func backoff(_ backoff: RetryStrategy.Backoff, fileID: String = #fileID, line: Int = #line)
            -> RetryMaker
        {
            maker.record(.retryBackoff, SourceLine(fileID: fileID, line: line)) {
                var s = $0.retry ?? RetryStrategy(maxRetries: 0)
                s.backoff = backoff
                $0.retry = s
            }
            return self
        }
        /// Fraction of each delay drawn at random.
        @discardableResult
        public func jitter(_ fraction: Double, fileID: String = #fileID, line: Int = #line) -> RetryMaker {
            maker.record(.retryJitter, SourceLine(fileID: fileID, line: line)) {
                var s = $0.retry ?? RetryStrategy(maxRetries: 0)
                s.jitter = min(1, max(0, fraction))
                $0.retry = s
            }
            return self
        }
        public var with: RetryMaker { self }
        public var and: RetryMaker { self }
    }
}
