/// What ``ImageManager/retrieveImage(with:options:progress:)`` returns.
public struct RetrieveImageResult: Sendable {
    public var image: Image
    /// Where the image came from: `.memory`, `.disk` (processed entry, or the original on disk
    /// processed again), or `.none` (downloaded or provided now).
    public var cacheType: CacheType
    /// The source that answered (an alternative one when the first failed).
    public var source: Source
    /// The source asked for.
    public var originalSource: Source
    /// With ``ImageOptions/keepsOriginalData``, the bytes behind the image:
    /// - downloaded or provided now, or an original on disk processed again: those bytes;
    /// - a disk hit: the entry's bytes, as read (the original for an unprocessed image under the
    ///   default serializer, the serialized processed image otherwise; Kingfisher's choice);
    /// - a memory hit: read from disk: the original under the plain key (in the original cache
    ///   when one is set), else the entry's own bytes; `nil` when neither is on disk (a
    ///   memory-only entry, or one evicted from disk).
    public var data: [UInt8]?
    /// Whether this caller shared the download, decode and processing another caller started.
    public var coalesced: Bool
    /// The processed entry's bytes as this retrieval stored them (see ``ImageManager/Fetched``).
    var stored: ImageManager.StoredBytes? = nil
    /// The source's freshness, when this retrieval fetched or processed it now.
    var freshness: EntryFreshness? = nil
}

/// What ``ImageManager/retrieveData(with:options:progress:)`` returns: encoded bytes, never
/// decoded when they could be served as they are.
public struct RetrieveDataResult: Sendable {
    /// The original's bytes (no processor), or the processed image's as the cache serializes it.
    public var data: [UInt8]
    /// The bytes' format, sniffed.
    public var format: ImageFormat
    /// `.disk` (an entry, fresh or renewed by a `304`, or a stale one served as the origin's
    /// caching headers or the options allow), or `.none` (downloaded, or processed now).
    public var cacheType: CacheType
    /// Whether a conditional request confirmed the disk entry (a `304`: no body came down).
    public var revalidated: Bool
    public var source: Source
    /// Whether this caller shared another caller's retrieval.
    public var coalesced: Bool
    /// The origin's `Last-Modified` for the bytes (a processed variant's is its source's), when
    /// it sent one.
    public var lastModified: String?
    /// How long the origin's caching headers let the bytes be used (a processed variant's is its
    /// source's), renewed by any `304`: ``EntryFreshness/unlimited`` when they stated no
    /// lifetime, the options ignore them, or the bytes came from a provider. An image service
    /// passes it on (imgproxy's `IMGPROXY_CACHE_CONTROL_PASSTHROUGH`).
    public var freshness: EntryFreshness = .unlimited
}
