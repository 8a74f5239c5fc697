/// How a request's path is read, as imgproxy's variables shape it
/// (``ServiceConfiguration/paths``). The defaults read imgproxy's URLs as imgproxy does out of the
/// box. (Apart from ``ServiceConfiguration`` so the path fuzzer builds it alone.)
public struct PathRules: Sendable, Hashable {
    /// Divides an option's name and arguments (`IMGPROXY_ARGUMENTS_SEPARATOR`): `:`, or for
    /// example `,` for `/size,100,100,1/…`. In presets too.
    public var argumentsSeparator = ":"
    /// Put before a source that does not start with it (`IMGPROXY_BASE_URL`), after the
    /// replacements; the result is a source like any other (scheme, address policy, limits).
    public var baseURL = ""
    /// Rewrites of sources' beginnings, in order (`IMGPROXY_URL_REPLACEMENTS`).
    public var replacements: [SourceReplacement] = []
    /// A base64 source may be followed by `/` and a file name, which is dropped
    /// (`IMGPROXY_BASE64_URL_INCLUDES_FILENAME`: `/…/{base64}.png/puppy.jpg`).
    public var base64IncludesFilename = false
    /// Paths are `/{signature}/{preset}{separator}{preset}…/{source}`, no option segments
    /// (`IMGPROXY_ONLY_PRESETS`).
    public var onlyPresets = false
    /// Option names, as a URL writes them (`w`, `width`), a URL may use; empty: all
    /// (`IMGPROXY_ALLOWED_PROCESSING_OPTIONS`). Presets' own options are not checked, as in
    /// imgproxy; `pr` must be listed for a URL to name one.
    public var allowedOptions: Set<String> = []
    /// Every route is under it (`IMGPROXY_PATH_PREFIX`, `/images`): `/images/{signature}/…`,
    /// `/images/health`; elsewhere 404.
    public var prefix = ""
    /// Answers as `/health` does, besides it (`IMGPROXY_HEALTH_CHECK_PATH`), under the prefix.
    public var healthCheckPath = ""
    /// Where a `local://` or `s3://` source's key ends and its query (an S3 version) begins
    /// (`IMGPROXY_SOURCE_URL_QUERY_SEPARATOR`): `?`; another text, as `|`; or empty for none, so a
    /// `?` is part of the key. http(s) sources keep their own query.
    public var sourceQuerySeparator = "?"

    public init() {}

    /// The source as the rules make it: the replacements in order, then the base URL where
    /// the source does not already start with it.
    func rewritten(_ source: String) -> String {
        var s = source
        for r in replacements { s = r.apply(s) }
        // In bytes, as imgproxy compares: Swift's `hasPrefix` compares characters, and a combining
        // mark after the base URL's last byte would make it miss.
        if !baseURL.isEmpty && !s.utf8.starts(with: baseURL.utf8) { s = baseURL + s }
        return separated(s)
    }

    /// A storage source with its key's `?` and `#` kept as part of the key (percent-encoded) and
    /// the first separator made its `?`, as imgproxy's transports cut a key at the separator; the
    /// query's own `?` and `#` are encoded too (the fuzzer found a `#` there cutting a version).
    func separated(_ source: String) -> String {
        guard sourceQuerySeparator != "?",
            ["local://", "s3://"].contains(where: { source.utf8.starts(with: $0.utf8) })
        else { return source }
        var key = Substring(source)
        var query: Substring?
        if let range = Self.firstRange(of: sourceQuerySeparator, in: key) {
            query = key[range.upperBound...]
            key = key[..<range.lowerBound]
        }
        // A `?` or `#` left in either part would start another query or a fragment (and cut an S3
        // version short): both are encoded, as parts of the key or of the query.
        let encoded = { (part: Substring) -> String in
            var out = ""
            for c in part.unicodeScalars {
                switch c {
                case "?": out += "%3F"
                case "#": out += "%23"
                default: out.unicodeScalars.append(c)
                }
            }
            return out
        }
        return query.map { encoded(key) + "?" + encoded($0) } ?? encoded(key)
    }

    /// Whether `segment` holds the arguments separator.
    func hasSeparator(_ segment: String) -> Bool {
        Self.firstRange(of: argumentsSeparator, in: Substring(segment)) != nil
    }

    /// `segment` split at the arguments separator, empty parts kept (Go's `strings.Split`).
    func split(_ segment: some StringProtocol, maxSplits: Int = .max) -> [Substring] {
        var rest = Substring(segment)
        var parts: [Substring] = []
        while parts.count < maxSplits, let range = Self.firstRange(of: argumentsSeparator, in: rest) {
            parts.append(rest[..<range.lowerBound])
            rest = rest[range.upperBound...]
        }
        parts.append(rest)
        return parts
    }

    /// Where `needle` first occurs in `text`, compared in bytes as Go's `strings.Index` does: a
    /// Character search would not see a `,` that a prepended mark (U+070F) joins into one
    /// grapheme, so splitting and testing for the separator could disagree (the path fuzzer
    /// found one). Both are valid UTF-8, so a match starts and ends on scalar boundaries.
    static func firstRange(of needle: String, in text: Substring) -> Range<String.Index>? {
        let n = needle.utf8
        guard let first = n.first else { return nil }
        let bytes = text.utf8
        var i = bytes.startIndex
        while let hit = bytes[i...].firstIndex(of: first) {
            if let end = bytes.index(hit, offsetBy: n.count, limitedBy: bytes.endIndex),
                bytes[hit..<end].elementsEqual(n)
            {
                return hit..<end
            }
            i = bytes.index(after: hit)
        }
        return nil
    }

    /// `target` without the prefix, or `nil` when it is not under it.
    func unprefixed(_ target: String) -> String? {
        guard !prefix.isEmpty else { return target }
        guard target.utf8.starts(with: prefix.utf8) else { return nil }
        let rest = target.utf8.dropFirst(prefix.utf8.count)
        guard rest.first == UInt8(ascii: "/") else { return nil }
        return String(decoding: rest, as: UTF8.self)
    }
}
