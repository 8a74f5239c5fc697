#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a response says about caching it (RFC 9111), read as a private cache reads it:
/// `Cache-Control` (`max-age`, `no-store`, `no-cache`, `private`, `immutable`, `must-revalidate`,
/// `stale-while-revalidate`, `stale-if-error`; `s-maxage` and `public` are for shared caches),
/// `Expires`, `Date`, `Age` and `Vary`.
///
/// Conflicting or malformed values count as stale, as RFC 9111 §4.2.1 and §5.3 allow: two
/// different `max-age` values, a `max-age` that is not a number, an `Expires` that is not an
/// HTTP-date (see `HTTPDate`), two different `Expires` lines. `Age` and `Date` take their first
/// value (§5.1: a list such as `Age: 7200, 0` is the first member); an `Age` that is not a
/// non-negative integer is ignored.
public struct HTTPCacheHeaders: Sendable, Hashable {
    /// The response's status code: without explicit freshness only the heuristically cacheable
    /// ones may be stored (see ``isStorable``).
    public var statusCode = 200
    /// `max-age`, seconds.
    public var maxAge: Int?
    /// `Expires` (a value that is not a date is the distant past: already expired).
    public var expires: Date?
    /// `Date`: when the origin made the response.
    public var date: Date?
    /// `Last-Modified` (first line; `nil` when it is not an HTTP-date), for heuristic freshness.
    public var lastModified: Date?
    /// `Age`: seconds the response spent in caches before this one.
    public var age: Int?
    public var noStore = false
    /// Store, but revalidate before every use.
    public var noCache = false
    public var isPrivate = false
    /// `public`: storable whatever the status code.
    public var isPublic = false
    /// Never revalidate while fresh.
    public var immutable = false
    /// `must-revalidate`: once stale, never served without a successful revalidation (no
    /// `stale-while-revalidate`, no `stale-if-error`, whatever the options allow).
    public var mustRevalidate = false
    /// Whether the response had a `Cache-Control` field at all (a `304` with one restates the
    /// caching directives; one without leaves the stored ones).
    public var hasCacheControl = false
    /// Seconds a stale response may still be served while one revalidation runs.
    public var staleWhileRevalidate: Int?
    /// Seconds a stale response may be served when revalidating fails.
    public var staleIfError: Int?
    /// `Vary`: lower-case field names; `["*"]` when the response varies on everything.
    public var vary: [String] = []

    public init() {}

    /// Reads the fields from response headers (every `Cache-Control` and `Vary` line counts) and
    /// the response's status code.
    public init(_ headers: [HTTPHeaderField], statusCode: Int = 200) {
        self.statusCode = statusCode
        var maxAges: Set<Int> = []
        var expiresValues: Set<Double> = []
        var sawAge = false
        for field in headers {
            switch field.name.lowercased() {
            case "cache-control":
                hasCacheControl = true
                for (name, value) in Self.directives(field.value) {
                    switch name {
                    case "max-age": maxAges.insert(Self.seconds(value) ?? 0)
                    case "no-store": noStore = true
                    case "no-cache": noCache = true
                    case "private": isPrivate = true
                    case "public": isPublic = true
                    case "immutable": immutable = true
                    case "must-revalidate": mustRevalidate = true
                    case "stale-while-revalidate": staleWhileRevalidate = Self.seconds(value)
                    case "stale-if-error": staleIfError = Self.seconds(value)
                    default: break
                    }
                }
            case "expires":
                expiresValues.insert((HTTPDate.parse(field.value) ?? .distantPast).timeIntervalSinceReferenceDate)
            case "date" where date == nil: date = HTTPDate.parse(field.value)
            case "last-modified" where lastModified == nil: lastModified = HTTPDate.parse(field.value)
            case "age" where !sawAge:
                // The first line's first member, parameters aside; a malformed one is ignored.
                sawAge = true
                let first = Self.split(field.value, at: ",").first ?? ""
                age = Self.seconds(String(Self.trimmed(Self.split(String(first), at: ";").first ?? "")))
            case "vary":
                vary += Self.split(field.value, at: ",").map { Self.trimmed($0).lowercased() }.filter { !$0.isEmpty }
            default: break
            }
        }
        if !maxAges.isEmpty { maxAge = maxAges.count == 1 ? maxAges.first : 0 }
        if !expiresValues.isEmpty {
            expires =
                expiresValues.count == 1 ? Date(timeIntervalSinceReferenceDate: expiresValues.first!) : .distantPast
        }
        if vary.contains("*") { vary = ["*"] }
    }

    /// The status codes a cache may store without explicit freshness (RFC 9110 §15.1: defined
    /// as heuristically cacheable).
    public static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]

    /// Whether the response says how long it is fresh (`max-age` or `Expires`).
    public var hasExplicitFreshness: Bool { maxAge != nil || expires != nil }

    /// Whether a cache may store the response (RFC 9111 §3): not `no-store`, and explicit
    /// freshness, `public`, or a heuristically cacheable status. A `201 Created` or
    /// `202 Accepted` that says nothing of its freshness is not stored.
    public var isStorable: Bool {
        !noStore && (hasExplicitFreshness || isPublic || Self.heuristicallyCacheable.contains(statusCode))
    }

    /// The freshness browsers give a response that states none (RFC 9111 §4.2.2, as Chromium and
    /// Firefox compute it): a tenth of the time between its `Last-Modified` and its `Date` (else
    /// its arrival), at most a week; `nil` with explicit freshness or without `Last-Modified`.
    public func heuristicLifetime(receivedAt: Date) -> TimeInterval? {
        guard !hasExplicitFreshness, let lastModified else { return nil }
        return min(max(0, (date ?? receivedAt).timeIntervalSince(lastModified)) / 10, 7 * 86_400)
    }

    /// How long the response stays fresh from `receivedAt`, the moment it arrived: `max-age`,
    /// else `Expires` − `Date`, less the age it already had (`Age`, or how far the origin's
    /// `Date` lies behind `receivedAt`). `nil` when the response sets no lifetime (the cache's own
    /// expiry applies); zero or less is stale on arrival.
    public func freshnessLifetime(receivedAt: Date) -> TimeInterval? {
        let lifetime: TimeInterval
        if let maxAge {
            lifetime = TimeInterval(maxAge)
        } else if let expires {
            lifetime = expires.timeIntervalSince(date ?? receivedAt)
        } else {
            return nil
        }
        let apparentAge = date.map { max(0, receivedAt.timeIntervalSince($0)) } ?? 0
        let initialAge = max(apparentAge, TimeInterval(age ?? 0))
        return lifetime - initialAge
    }

    /// A non-negative delta-seconds value, capped at 2^31 (RFC 9111 §1.2.2); `nil` when malformed.
    static func seconds(_ text: String?) -> Int? {
        guard let text, !text.isEmpty, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return Int(text.prefix(10)).map { min($0, Int(Int32.max)) } ?? Int(Int32.max)
    }

    /// `text` divided at `separator` (one ASCII byte), empty parts kept: in Unicode scalars, as an
    /// HTTP parser reads bytes, so a combining mark after a `,` cannot join it into one Character
    /// and hide it (the path parser's lesson, found by its fuzzer).
    static func split(_ text: String, at separator: Unicode.Scalar) -> [Substring] {
        text.unicodeScalars.split(separator: separator, omittingEmptySubsequences: false).map { Substring($0) }
    }

    /// Without leading and trailing spaces and tabs (HTTP's optional whitespace), by scalar.
    static func trimmed(_ text: Substring) -> Substring {
        var t = text.unicodeScalars
        while let c = t.first, c == " " || c == "\t" { t.removeFirst() }
        while let c = t.last, c == " " || c == "\t" { t.removeLast() }
        return Substring(t)
    }

    /// `name[=value]` pairs of a Cache-Control line; names lower-cased, quotes taken off values.
    static func directives(_ line: String) -> [(String, String?)] {
        var out: [(String, String?)] = []
        var current = ""
        var quoted = false
        func flush() {
            let item = Self.trimmed(Substring(current))
            current = ""
            guard !item.isEmpty else { return }
            guard let eq = item.unicodeScalars.firstIndex(of: "=") else {
                out.append((item.lowercased(), nil))
                return
            }
            var value = Self.trimmed(item[item.unicodeScalars.index(after: eq)...])
            if value.unicodeScalars.count >= 2, value.unicodeScalars.first == "\"", value.unicodeScalars.last == "\"" {
                value = Substring(value.unicodeScalars.dropFirst().dropLast())
            }
            out.append((Self.trimmed(item[..<eq]).lowercased(), String(value)))
        }
        for c in line.unicodeScalars {  // by scalar: see split(_:at:)
            if c == "\"" { quoted.toggle() }
            if c == "," && !quoted { flush() } else { current.unicodeScalars.append(c) }
        }
        flush()
        return out
    }
}
