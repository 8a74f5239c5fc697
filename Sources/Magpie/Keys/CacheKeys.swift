#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The one owner of cache keys: how a source becomes a key, how a processed image's key is
/// made from it, and the file name an entry is stored under.
///
/// - A network source: its explicit key, else the URL after the ``CacheKeyFilter`` (dropped query
///   items, no fragment, no user info); with credentials, `#credentials=<HMAC-SHA-256>` under the
///   cache folder's secret (see `network(url:explicitKey:filter:alsoDropping:credentials:secret:)`).
/// - A data provider: its `cacheKey` (`file:` URLs for local files).
/// - A processed image: `key@<processor identifier>`; the default processor adds nothing, and
///   first-frame-only adds `|>magpie.first-frame` to the identifier.
/// - On disk: the MD5 of the key as 32 hex digits, plus an optional extension.
public enum CacheKeys {
    /// The key of `url` with an explicit key, filter and credentials taken into account.
    /// - Parameters:
    ///   - credentials: the request's credential lines (`name:value`), sorted by the caller's
    ///     rules; empty when it carries none.
    ///   - secret: the cache folder's secret, read only when there are credentials.
    static func network(
        url: URL, explicitKey: String?, filter: CacheKeyFilter, alsoDropping extra: Set<String>,
        credentials: [String], secret: () -> [UInt8]
    ) -> String {
        let plain = WebURL.hasUserInfo(url.absoluteString) ? WebURL.withoutUserInfo(url) : url
        let base = explicitKey ?? filter.key(for: plain, alsoDropping: extra)
        guard !credentials.isEmpty else { return base }
        if let host = url.host?.lowercased(), filter.credentialIndependentHosts.contains(host) { return base }
        let material = Array(credentials.sorted().joined(separator: "\n").utf8)
        let mac = Digest.hmacSHA256(key: secret(), message: material)
        return base + "#credentials=" + Digest.hex(mac.prefix(16))
    }

    /// Whether `key` is one of a request with credentials (it ends in `#credentials=…`; URL
    /// fragments never reach a key, so nothing else puts that there).
    public static func hasCredentials(_ key: String) -> Bool { key.contains("#credentials=") }

    /// The key a processed image is cached under: `key`, plus `"@" + processorIdentifier` for
    /// processed ones.
    public static func processed(_ key: String, processorIdentifier: String?) -> String {
        guard let id = processorIdentifier, !id.isEmpty else { return key }
        return key + "@" + id
    }

    /// The identifier of what `processor` makes, first frame only or not.
    static func processorIdentifier(_ processor: any ImageProcessor, firstFrameOnly: Bool) -> String {
        let base = processor.identifier
        guard firstFrameOnly else { return base }
        return base.isEmpty ? "magpie.first-frame" : base + "|>magpie.first-frame"
    }

    /// The variant a request is of, for a response that said `Vary: names`:
    /// `"<names, sorted>;<MD5 hex of the values the request sent for them>"`, kept with the entry
    /// (see ``ResponseValidators/variant``). Credential fields are left out (the key already
    /// separates them, by a keyed digest); `nil` when nothing is left. A field the request did not
    /// send counts as empty.
    public static func variant(varying names: [String], requestHeaders: [HTTPHeaderField]) -> String? {
        let varied = Set(names.map { $0.lowercased() }).subtracting(WebURL.credentialHeaders).sorted()
        guard !varied.isEmpty, !varied.contains("*") else { return nil }
        let lines = varied.map { name in
            name + ":" + requestHeaders.filter { $0.name.lowercased() == name }.map(\.value).joined(separator: ",")
        }
        return varied.joined(separator: ",") + ";" + Digest.md5Hex(lines.joined(separator: "\n"))
    }

    /// The field names a stored variant varies on.
    static func variedNames(_ variant: String) -> [String] {
        guard let names = variant.split(separator: ";", maxSplits: 1).first else { return [] }
        return names.split(separator: ",").map(String.init)
    }

    /// MD5 (RFC 1321) of the key's UTF-8 bytes as 32 lowercase hex digits.
    public static func md5Hex(_ key: String) -> String { Digest.md5Hex(key) }

    /// The 16-byte MD5 digest of `bytes`.
    public static func md5(_ bytes: some Collection<UInt8>) -> [UInt8] { Digest.md5(bytes) }

    /// The disk-cache file name for `key`: its MD5 hex, plus `.pathExtension` when given.
    public static func fileName(for key: String, pathExtension: String? = nil) -> String {
        let base = md5Hex(key)
        guard let pathExtension, !pathExtension.isEmpty else { return base }
        return base + "." + pathExtension
    }
}
