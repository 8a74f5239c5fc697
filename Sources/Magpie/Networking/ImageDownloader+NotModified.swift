extension ImageDownloader {
    /// Whether a `304 Not Modified` names another representation than the one the conditional
    /// `request` asked about, so that it must not freshen the stored one (RFC 9111 §4.3.4): a
    /// strong ETag the request's `If-None-Match` did not carry, a weak one that does not match it
    /// even weakly, or, when the request had no `If-None-Match` (the stored response had no ETag),
    /// a `Last-Modified` other than its `If-Modified-Since` (an ETag then has nothing to be
    /// compared with; nginx sends one on every 304). A 304 with no validator of its own confirms
    /// what was asked about.
    static func contradicts(_ response: DataResponse, conditionalRequest request: DataRequest) -> Bool {
        let sentTags = request.headers.value(for: "If-None-Match").map(entityTags) ?? []
        if !sentTags.isEmpty, let etag = response.headers.value(for: "ETag").map(trimmed), !etag.isEmpty {
            if sentTags.contains("*") { return false }
            if etag.hasPrefix("W/") {
                return !sentTags.contains { opaque($0) == opaque(etag) }  // weak comparison
            }
            return !sentTags.contains(etag)  // strong comparison: both strong and identical
        }
        if sentTags.isEmpty, let since = request.headers.value(for: "If-Modified-Since"),
            let modified = response.headers.value(for: "Last-Modified")
        {
            return HTTPDate.parse(modified) != HTTPDate.parse(since) || HTTPDate.parse(modified) == nil
        }
        return false
    }

    /// The entity tags of an `If-None-Match` value (`"a", W/"b"`, or `*`).
    private static func entityTags(_ value: String) -> [String] {
        value.split(separator: ",").map { trimmed(String($0)) }.filter { !$0.isEmpty }
    }

    private static func trimmed(_ s: String) -> String {
        String(s.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    /// A tag without its weakness marker.
    private static func opaque(_ tag: String) -> Substring {
        tag.hasPrefix("W/") ? tag.dropFirst(2) : Substring(tag)
    }
}
