extension ImageOptions {
    /// The HTTP request of one retrieval (the DSL's `request`): transport settings, which never
    /// change the cache key.
    public struct RequestOptions: Sendable, Hashable {
        /// Extra header fields (after the downloader's defaults; the same name replaces one).
        public var headers: [HTTPHeaderField] = []
        /// Overrides the downloader's timeout.
        public var timeout: Duration?
        /// Changes the request before it goes out (sign it); may suspend and may fail.
        public var modifier: RequestModifier?
        /// Decides each redirect.
        public var redirectHandler: RedirectHandler?
        /// Priority of the tasks the retrieval starts.
        public var priority: TaskPriority?
        /// The downloader for this retrieval instead of the manager's.
        public var downloader: ImageDownloader?
        /// Download even when the URL failed recently.
        public var ignoresFailedURLMemory = false

        public init() {}

        public static func == (a: Self, b: Self) -> Bool {
            a.headers == b.headers && a.timeout == b.timeout && a.modifier == b.modifier
                && a.redirectHandler == b.redirectHandler && a.priority?.rawValue == b.priority?.rawValue
                && a.downloader.map { ObjectIdentifier($0) } == b.downloader.map { ObjectIdentifier($0) }
                && a.ignoresFailedURLMemory == b.ignoresFailedURLMemory
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(headers)
            hasher.combine(timeout)
            hasher.combine(modifier)
            hasher.combine(redirectHandler)
            hasher.combine(priority?.rawValue)
            hasher.combine(downloader.map { ObjectIdentifier($0) })
            hasher.combine(ignoresFailedURLMemory)
        }
    }
}

/// A request modifier with an identity, so options holding it stay `Hashable`.
public struct RequestModifier: Sendable, Hashable {
    private let id = IdentityToken()
    public let modify: @Sendable (DataRequest) async throws -> DataRequest
    public init(_ modify: @escaping @Sendable (DataRequest) async throws -> DataRequest) { self.modify = modify }
    public static func == (a: Self, b: Self) -> Bool { a.id == b.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// A redirect handler with an identity (see ``DownloadOptions/redirectHandler``).
public struct RedirectHandler: Sendable, Hashable {
    private let id = IdentityToken()
    public let decide: @Sendable (DataResponse, DataRequest) async -> DataRequest?
    public init(_ decide: @escaping @Sendable (DataResponse, DataRequest) async -> DataRequest?) {
        self.decide = decide
    }
    public static func == (a: Self, b: Self) -> Bool { a.id == b.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// A unique identity for values that hold closures or objects.
final class IdentityToken: Sendable, Hashable {
    static func == (a: IdentityToken, b: IdentityToken) -> Bool { a === b }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
