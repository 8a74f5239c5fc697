/// What the image codecs (the C core, through the Image layer) throw: decoding, encoding,
/// resampling and pixel-buffer errors, never the pipeline's (`ImageRetrieveError`) or the
/// network's (`ImageDownloadError`).
///
/// Each case carries a reason; ``CoreFailure`` holds the C core's stable status code, its message
/// and the codec's own detail where there is one.
public enum ImageCodecError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Decoding or probing the bytes failed.
    case decodingFailed(CoreFailure)
    /// Encoding pixels failed.
    case encodingFailed(CoreFailure)
    /// Resizing or cropping decoded pixels failed (bad geometry, over the pixel limit).
    case processingFailed(CoreFailure)
    /// Pixels handed to Magpie do not match their stated size.
    case invalidPixelBuffer(expectedBytes: Int, actualBytes: Int)

    public var description: String {
        switch self {
        case .decodingFailed(let failure): return "decoding failed: \(failure)"
        case .encodingFailed(let failure): return "encoding failed: \(failure)"
        case .processingFailed(let failure): return "processing failed: \(failure)"
        case .invalidPixelBuffer(let expected, let actual):
            return "pixel buffer holds \(actual) bytes, \(expected) expected"
        }
    }

    /// Whether the bytes themselves are at fault (not a known image, truncated, corrupt, a
    /// feature no decoder here reads): the same bytes will fail the same way every time. Limits,
    /// memory and processing failures are not the bytes' fault.
    public var meansDamagedInput: Bool {
        guard case .decodingFailed(let failure) = self else { return false }
        switch failure.code {
        case .unknownFormat, .unsupported, .truncated, .corrupt: return true
        default: return false
        }
    }

    /// The C core's failure, when the error came from it.
    public var coreFailure: CoreFailure? {
        switch self {
        case .decodingFailed(let failure), .encodingFailed(let failure), .processingFailed(let failure): return failure
        case .invalidPixelBuffer: return nil
        }
    }
}

/// A failure reported by the C core: a stable numbered code, its message and optional detail.
public struct CoreFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The C core's status codes (`MAGPIE_E…`); the raw values never change.
    public enum Code: Int32, Sendable, Hashable {
        case invalidArgument = 1
        case unknownFormat = 2
        case unsupported = 3
        case truncated = 4
        case corrupt = 5
        case pixelLimitExceeded = 6
        case memoryLimitExceeded = 7
        case frameLimitExceeded = 8
        case outOfMemory = 9
        case bufferTooSmall = 10
        case encodingFailed = 11
        case frameOutOfRange = 12
        case internalError = 13
        case fileUnreadable = 14
        /// The process-wide decode memory budget is taken by decodes in flight (retry later).
        case budgetInUse = 15
    }

    /// The status code; `nil` only for a code this version does not know.
    public let code: Code?
    /// The numeric status as the C API returned it.
    public let rawCode: Int32
    /// `magpie_strerror` of the status.
    public let message: String
    /// The codec's own message (libjpeg, libpng, giflib), when it gave one.
    public let detail: String?

    public var description: String {
        if let detail, !detail.isEmpty { return "\(message) (\(detail))" }
        return message
    }
}
