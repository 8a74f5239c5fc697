#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a response said about its body that a cache keeps: validators for revalidation, and
/// the content type.
public struct ResponseValidators: Sendable, Hashable {
    public var etag: String?
    public var lastModified: String?
    public var contentType: String?
    /// For a response with `Vary`: the varied field names and a digest of the values the request
    /// sent for them (``CacheKeys/variant(varying:requestHeaders:)``), which a later request must
    /// match to use what is cached.
    public var variant: String?

    /// Whether a conditional request can be made from these (an ETag or a Last-Modified that
    /// can be sent as a header value).
    public var canRevalidate: Bool {
        etag.map(Self.isSendable) == true || lastModified.map(Self.isSendable) == true
    }

    /// A non-empty header value of visible ASCII, spaces and tabs, at most 1 KiB.
    static func isSendable(_ value: String) -> Bool {
        !value.isEmpty && value.utf8.count <= 1024
            && value.utf8.allSatisfy { ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x09 }
    }

    public init(etag: String? = nil, lastModified: String? = nil, contentType: String? = nil, variant: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
        self.contentType = contentType
        self.variant = variant
    }
}
