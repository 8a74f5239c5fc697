#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One HTTP header field. Names compare case-insensitively where Magpie looks them up.
public struct HTTPHeaderField: Sendable, Hashable {
    public var name: String
    public var value: String
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    /// Whether two field names are equal ignoring ASCII case (field names are ASCII tokens).
    static func namesMatch(_ a: String, _ b: String) -> Bool {
        a.utf8.elementsEqual(b.utf8) { x, y in
            x == y || (x ^ y == 0x20 && (x | 0x20) >= UInt8(ascii: "a") && (x | 0x20) <= UInt8(ascii: "z"))
        }
    }
}

extension [HTTPHeaderField] {
    /// The first value of the field `name` (case-insensitive).
    public func value(for name: String) -> String? {
        first { HTTPHeaderField.namesMatch($0.name, name) }?.value
    }

    /// Replaces every field `name` with one holding `value`.
    public mutating func set(_ name: String, _ value: String) {
        let lower = name.lowercased()
        removeAll { $0.name.lowercased() == lower }
        append(HTTPHeaderField(name, value))
    }
}

/// A request a ``DataLoading`` transport performs: one GET, no redirects followed.
public struct DataRequest: Sendable, Hashable {
    public var url: URL
    public var headers: [HTTPHeaderField]
    /// Time for the whole exchange, body included.
    public var timeout: Duration
    /// Largest body accepted: refused early on `Content-Length`, aborted while streaming.
    public var maxBodySize: Int
    /// Statuses whose body is wanted; other answers (redirects, error pages) are drained, not kept.
    public var acceptableStatusCodes: Range<Int>
    /// Asks the transport to throw ``DataTransferInterrupted``, with the head and the bytes
    /// received, when a `200` or `206` body is cut short (the downloader sets it to resume
    /// downloads). Off: the failure alone.
    public var keepsPartialBody = false

    public init(
        url: URL, headers: [HTTPHeaderField] = [], timeout: Duration = .seconds(15), maxBodySize: Int = 64 << 20,
        acceptableStatusCodes: Range<Int> = 200..<300
    ) {
        self.url = url
        self.headers = headers
        self.timeout = timeout
        self.maxBodySize = maxBodySize
        self.acceptableStatusCodes = acceptableStatusCodes
    }
}

/// What a transport got back. Redirects and other unwanted statuses carry their headers and no body.
public struct DataResponse: Sendable, Hashable {
    public var url: URL
    public var statusCode: Int
    public var headers: [HTTPHeaderField]
    public var body: [UInt8]

    public init(url: URL, statusCode: Int, headers: [HTTPHeaderField] = [], body: [UInt8] = []) {
        self.url = url
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
    }

    public var isRedirect: Bool { [301, 302, 303, 307, 308].contains(statusCode) }
}

/// A transport for image bytes (Kingfisher's `ImageDownloader` session, made pluggable).
///
/// Implementations perform exactly the request given: they do not follow redirects or retry
/// (the downloader does both, so its hooks and limits apply whatever the transport). They throw
/// ``ImageDownloadError`` for transport failures, `CancellationError` when the task is cancelled,
/// and must enforce `maxBodySize` and `timeout`. A transport that can hand back a cut body throws
/// ``DataTransferInterrupted`` instead when the request's `keepsPartialBody` asks for it, and
/// honours `Range` (a `206` continuation may then bring `maxBodySize` less the bytes kept); one
/// that cannot just has its cut transfers started over.
public protocol DataLoading: Sendable {
    /// Performs `request`, reporting body bytes received (and the expected total when known).
    func load(_ request: DataRequest, progress: @escaping @Sendable (_ received: Int, _ expected: Int?) -> Void)
        async throws -> DataResponse
    /// Releases the transport's resources; further loads fail.
    func shutdown() async throws
}

extension DataLoading {
    public func shutdown() async throws {}
}
