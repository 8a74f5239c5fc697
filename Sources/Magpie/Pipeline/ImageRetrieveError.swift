/// Why a retrieval failed: the stage that failed, with the underlying error, typed (Nuke's
/// `ImagePipeline.Error`). `ImageManager.retrieveImage` and `retrieveData` throw only these, and
/// ``cancelled`` when the calling task was cancelled; the DSL's own mistakes are
/// ``ImageOptionsError``.
public enum ImageRetrieveError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `onlyFromCache` and nothing cached under `key`.
    case notCached(key: String)
    /// A data provider failed with `underlying`, the provider's own error (catch it by its type).
    case providerFailed(key: String, underlying: any Error)
    /// Loading the bytes failed: connection, status, body, redirect or URL (see the error).
    case loadingFailed(ImageDownloadError)
    /// The bytes did not decode.
    case decodingFailed(ImageCodecError)
    /// The processor with this identifier failed on the decoded image with `underlying` (an
    /// `ImageCodecError` for the built-in processors, your processor's own error otherwise).
    case processingFailed(processor: String, underlying: any Error)
    /// The source and every alternative failed: each source (as its cache key or URL) with its
    /// error, in the order they were tried.
    case allSourcesFailed([SourceFailure])
    /// The calling task was cancelled.
    case cancelled

    /// One source's failure among several.
    public struct SourceFailure: Sendable, Hashable {
        public var source: String
        public var error: ImageRetrieveError
        public init(source: String, error: ImageRetrieveError) {
            self.source = source
            self.error = error
        }
    }

    /// The download error underneath, when loading failed (the last source's, with alternatives).
    public var downloadError: ImageDownloadError? {
        switch self {
        case .loadingFailed(let e): return e
        case .allSourcesFailed(let all): return all.last?.error.downloadError
        default: return nil
        }
    }

    /// The stage that failed, as a word: `cache`, `provider`, `loading`, `decoding`, `processing`
    /// or `sources`.
    public var stage: String {
        switch self {
        case .notCached: return "cache"
        case .providerFailed: return "provider"
        case .loadingFailed: return "loading"
        case .decodingFailed: return "decoding"
        case .processingFailed: return "processing"
        case .allSourcesFailed: return "sources"
        case .cancelled: return "cancelled"
        }
    }

    public var description: String {
        switch self {
        case .notCached(let key): return "not cached: \(key)"
        case .providerFailed(let key, let e): return "data provider for \(key) failed: \(e)"
        case .loadingFailed(let e): return e.description
        case .decodingFailed(let e): return e.description
        case .processingFailed(let processor, let e): return "processor \(processor) failed: \(e)"
        case .allSourcesFailed(let all):
            return "every source failed: " + all.map { "\($0.source): \($0.error)" }.joined(separator: "; ")
        case .cancelled: return "cancelled"
        }
    }

    public static func == (a: ImageRetrieveError, b: ImageRetrieveError) -> Bool {
        switch (a, b) {
        case (.notCached(let x), .notCached(let y)): return x == y
        case (.providerFailed(let k, let e), .providerFailed(let l, let f)): return k == l && same(e, f)
        case (.loadingFailed(let x), .loadingFailed(let y)): return x == y
        case (.decodingFailed(let x), .decodingFailed(let y)): return x == y
        case (.processingFailed(let p, let e), .processingFailed(let q, let f)): return p == q && same(e, f)
        case (.allSourcesFailed(let x), .allSourcesFailed(let y)): return x == y
        case (.cancelled, .cancelled): return true
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(stage)
        hasher.combine(description)
    }

    /// Underlying errors are equal when their values are (for `Hashable` ones), else when their
    /// types and descriptions are.
    private static func same(_ a: any Error, _ b: any Error) -> Bool {
        if let x = a as? AnyHashable, let y = b as? AnyHashable { return x == y }
        return String(reflecting: type(of: a)) == String(reflecting: type(of: b))
            && String(describing: a) == String(describing: b)
    }

    /// `error` as a retrieval error of the stage it came from; `nil` for cancellation.
    static func wrapping(_ error: any Error, processor: String = "") -> ImageRetrieveError? {
        switch error {
        case is CancellationError: return nil
        case let e as ImageRetrieveError: return e == .cancelled ? nil : e
        case let e as ImageDownloadError: return .loadingFailed(e)
        case let e as ImageCodecError:
            if case .decodingFailed = e { return .decodingFailed(e) }
            return .processingFailed(processor: processor, underlying: e)
        default: return .processingFailed(processor: processor, underlying: error)
        }
    }
}
