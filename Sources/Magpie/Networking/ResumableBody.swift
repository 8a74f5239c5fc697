#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A transfer a transport could not finish: the head and the body bytes that arrived before
/// `failure` cut it. A transport that keeps them throws this instead of `failure`, and the
/// downloader can then ask for the rest (`ResumableBody`); one that throws `failure` alone
/// just has its transfers started over.
public struct DataTransferInterrupted: Error, Sendable {
    /// The answer as far as it came: status, head and the body bytes received.
    public var partial: DataResponse
    /// Why it stopped (a connection cut, a timeout, a body shorter than declared).
    public var failure: ImageDownloadError

    public init(partial: DataResponse, failure: ImageDownloadError) {
        self.partial = partial
        self.failure = failure
    }
}

/// The bytes of a body cut short, kept for the next attempt with what it takes to ask for the
/// rest of the same version (Nuke's `ResumableData`, curl's `-C -`).
///
/// Kept only when the answer can be continued safely: a `200` (or the continuing `206`) with
/// `Accept-Ranges: bytes`, no `Content-Encoding`, and a strong validator: an `ETag` that is not
/// weak, or else a `Last-Modified` at least a second older than the response's `Date` (RFC 9110
/// §8.8.2.2; an `If-Range` never carries a weak tag, nor a date when there is a tag, §13.1.5).
/// The next request asks `Range: bytes=N-` with `If-Range`; its answer continues the body only as
/// a `206` whose `Content-Range` is exactly `N-(total-1)/total`, of the same complete length,
/// with the same validator, and a body of that length. A `200` is the file whole (changed or
/// not) and replaces the bytes; anything else drops them and the transfer starts over, so two
/// versions are never spliced. The bytes stay in memory within the download's body limit, and
/// the whole body counts against it.
struct ResumableBody: Sendable {
    /// The URL that answered (after redirects): the range is asked of it alone.
    let url: URL
    /// The head of the answer that started the body.
    let headers: [HTTPHeaderField]
    var body: [UInt8]
    /// The `If-Range` value: the strong ETag, or the Last-Modified date.
    let validator: String
    let validatorIsTag: Bool
    /// The complete length, when an answer declared it.
    var total: Int?

    /// What a response to the range request means for the body kept.
    enum Continuation {
        /// The rest arrived: the whole body, as one `200` answer.
        case completed(DataResponse)
        /// The answer cannot continue this body: start over without a range.
        case inconsistent
    }

    /// The part of a cut `partial` answer (to a request without a range) worth keeping; nil
    /// unless its response allows asking for the rest.
    init?(_ partial: DataResponse, maxBodySize: Int) {
        guard partial.statusCode == 200, !partial.body.isEmpty, partial.body.count < maxBodySize else { return nil }
        let h = partial.headers
        guard Self.acceptsByteRanges(h), Self.isIdentity(h) else { return nil }
        let total = h.value(for: "Content-Length").flatMap(Self.number)
        if let total, total <= partial.body.count || total > maxBodySize { return nil }
        if let tag = h.value(for: "ETag") {
            // A weak tag cannot go in If-Range, and with a tag a date may not either.
            guard !tag.hasPrefix("W/"), tag.hasPrefix("\""), ResponseValidators.isSendable(tag) else { return nil }
            validator = tag
            validatorIsTag = true
        } else if let modified = h.value(for: "Last-Modified"), ResponseValidators.isSendable(modified),
            let date = h.value(for: "Date").flatMap(HTTPDate.parse), let last = HTTPDate.parse(modified),
            date.timeIntervalSince(last) >= 1
        {
            validator = modified
            validatorIsTag = false
        } else {
            return nil
        }
        url = partial.url
        headers = h
        body = partial.body
        self.total = total
    }

    /// The fields that ask for the rest: `Range` and `If-Range`.
    var rangeFields: [HTTPHeaderField] {
        [HTTPHeaderField("Range", "bytes=\(body.count)-"), HTTPHeaderField("If-Range", validator)]
    }

    /// Whether a request (as the caller built it) may be resumed at all: one that asks for a
    /// range of its own is the caller's business.
    static func mayResume(_ request: DataRequest) -> Bool {
        request.headers.value(for: "Range") == nil && request.headers.value(for: "If-Range") == nil
    }

    /// The range `Content-Range` states and the complete length, when it is `bytes first-last/complete`.
    static func contentRange(_ headers: [HTTPHeaderField]) -> (first: Int, last: Int, complete: Int)? {
        guard let value = headers.value(for: "Content-Range") else { return nil }
        let bytes = Array(value.utf8)
        guard bytes.count > 6, bytes[..<6].map({ $0 | 0x20 }) == Array("bytes ".utf8) else { return nil }
        let parts = bytes[6...].split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let range = parts[0].split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        guard range.count == 2, let first = number(range[0]), let last = number(range[1]),
            let complete = number(parts[1]), first <= last, last < complete
        else { return nil }
        return (first, last, complete)
    }

    /// Judges `response`, the answer to a request carrying ``rangeFields``: `nil` when it is not
    /// a `206` (a `200` is used as it stands), else whether it completes the body.
    func continuation(with response: DataResponse, maxBodySize: Int) -> Continuation? {
        guard response.statusCode == 206 else { return nil }
        guard let rest = continued(by: response, maxBodySize: maxBodySize), let total = rest.total,
            rest.body.count == total
        else { return .inconsistent }
        var fields = headers.filter {
            !HTTPHeaderField.namesMatch($0.name, "Content-Length") && !Self.isReplaced($0.name, in: response.headers)
        }
        fields += response.headers.filter {
            !HTTPHeaderField.namesMatch($0.name, "Content-Range")
                && !HTTPHeaderField.namesMatch($0.name, "Content-Length")
        }
        fields.append(HTTPHeaderField("Content-Length", String(total)))
        return .completed(DataResponse(url: url, statusCode: 200, headers: fields, body: rest.body))
    }

    /// This body continued by a `206` answer (whole or itself cut short), or nil when the answer
    /// does not continue it: another range, another complete length, another validator, more
    /// than the limit, or more bytes than its range.
    func continued(by response: DataResponse, maxBodySize: Int) -> ResumableBody? {
        guard response.statusCode == 206, response.url == url, Self.isIdentity(response.headers),
            let range = Self.contentRange(response.headers), range.first == body.count,
            range.last == range.complete - 1, range.complete <= maxBodySize,
            total.map({ $0 == range.complete }) ?? true,
            response.body.count <= range.last - range.first + 1, sameVersion(response.headers)
        else { return nil }
        var next = self
        next.body += response.body
        next.total = range.complete
        return next
    }

    /// Whether the part's head names the version the body started with.
    private func sameVersion(_ part: [HTTPHeaderField]) -> Bool {
        if validatorIsTag { return part.value(for: "ETag") == validator }
        return part.value(for: "ETag") == nil && part.value(for: "Last-Modified") == validator
    }

    private static func isReplaced(_ name: String, in fields: [HTTPHeaderField]) -> Bool {
        fields.contains { HTTPHeaderField.namesMatch($0.name, name) }
    }

    /// `Accept-Ranges` lists `bytes`.
    static func acceptsByteRanges(_ headers: [HTTPHeaderField]) -> Bool {
        headers.contains { field in
            HTTPHeaderField.namesMatch(field.name, "Accept-Ranges")
                && HTTPCacheHeaders.split(field.value, at: ",").contains {
                    HTTPHeaderField.namesMatch(String(HTTPCacheHeaders.trimmed($0)), "bytes")
                }
        }
    }

    /// No `Content-Encoding` but `identity`: the bytes are the representation's own.
    static func isIdentity(_ headers: [HTTPHeaderField]) -> Bool {
        !headers.contains { field in
            HTTPHeaderField.namesMatch(field.name, "Content-Encoding")
                && !HTTPCacheHeaders.split(field.value, at: ",").allSatisfy {
                    HTTPHeaderField.namesMatch(String(HTTPCacheHeaders.trimmed($0)), "identity")
                }
        }
    }

    /// A decimal of digits alone, without overflow.
    static func number<S: StringProtocol>(_ text: S) -> Int? { number(Array(text.utf8)[...]) }

    static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count <= 18 else { return nil }
        var value = 0
        for d in digits {
            guard d >= UInt8(ascii: "0"), d <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(d - UInt8(ascii: "0"))
        }
        return value
    }
}
