/// Why a retrieval failed: the stage that failed, with the underlying error (Nuke's
/// `ImagePipeline.Error`). Everything `ImageManager.retrieveImage` and `ImagePrefetcher` report is
/// one of these (or `CancellationError`); the DSL's own mistakes are ``ImageOptionsError``.
public enum ImageRetrieveError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `onlyFromCache` and nothing cached under `key`.
    case notCached(key: String)
    /// A data provider failed.
    case providerFailed(key: String, reason: String)
    /// Loading the bytes failed: connection, status, body, redirect or URL (see the error).
    case loadingFailed(ImageDownloadError)
    /// The bytes did not decode.
    case decodingFailed(MagpieError)
    /// The processor with this identifier failed on the decoded image.
    case processingFailed(processor: String, reason: String)
    /// The source and every alternative failed: each source (as its cache key or URL) with its
    /// error, in the order they were tried.
    case allSourcesFailed([SourceFailure])

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
        }
    }

    public var description: String {
        switch self {
        case .notCached(let key): return "not cached: \(key)"
        case .providerFailed(let key, let reason): return "data provider for \(key) failed: \(reason)"
        case .loadingFailed(let e): return e.description
        case .decodingFailed(let e): return e.description
        case .processingFailed(let processor, let reason): return "processor \(processor) failed: \(reason)"
        case .allSourcesFailed(let all):
            return "every source failed: " + all.map { "\($0.source): \($0.error)" }.joined(separator: "; ")
        }
    }

    /// `error` as a retrieval error of the stage it came from; `nil` for cancellation.
    static func wrapping(_ error: any Error, processor: String = "") -> ImageRetrieveError? {
        switch error {
        case is CancellationError: return nil
        case let e as ImageRetrieveError: return e
        case let e as ImageDownloadError: return .loadingFailed(e)
        case let e as MagpieError:
            if case .decodingFailed = e { return .decodingFailed(e) }
            return .processingFailed(processor: processor, reason: e.description)
        default: return .processingFailed(processor: processor, reason: String(describing: error))
        }
    }
}
