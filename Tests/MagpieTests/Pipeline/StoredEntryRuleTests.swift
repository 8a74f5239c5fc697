import Testing

@testable import Magpie

/// ``StoredEntryRule`` alone, over a table: every combination of freshness, directives,
/// validators and options that the pipeline and the prefetcher meet.
@Suite struct StoredEntryRuleTests {
    typealias D = StoredEntryRule.Decision

    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var freshness = EntryFreshness(freshUntil: 1000, lifetime: 60)
        var isStale = false
        var staleFor: Double = -10
        var canRevalidate = true
        var options: @Sendable (inout ImageOptions) -> Void = { _ in }
        var expected: D
        var description: String { name }
    }

    static let swr = EntryFreshness(freshUntil: 1000, lifetime: 60, staleWhileRevalidate: 30)
    static let immutable = EntryFreshness(freshUntil: 1000, lifetime: 60, immutable: true)
    static let mustRevalidate = EntryFreshness(
        freshUntil: 1000, lifetime: 60, staleWhileRevalidate: 30, mustRevalidate: true)
    static let noCache = EntryFreshness(freshUntil: 1000, lifetime: 0, staleWhileRevalidate: 30, noCache: true)

    static let cases: [Case] = [
        Case(name: "fresh", expected: .use),
        Case(name: "fresh, no validators", canRevalidate: false, expected: .use),
        Case(name: "fresh, forced", options: { $0.readPolicy = .revalidate }, expected: .revalidate),
        Case(
            name: "fresh immutable, forced", freshness: immutable, options: { $0.readPolicy = .revalidate },
            expected: .use),
        Case(
            name: "fresh, forced, no validators", canRevalidate: false, options: { $0.readPolicy = .revalidate },
            expected: .use),
        Case(name: "stale", isStale: true, staleFor: 5, expected: .revalidate),
        Case(name: "stale, no validators", isStale: true, staleFor: 5, canRevalidate: false, expected: .miss),
        Case(
            name: "stale, only the cache", isStale: true, staleFor: 5, options: { $0.readPolicy = .cacheOnly },
            expected: .miss),
        Case(
            name: "stale within swr", freshness: swr, isStale: true, staleFor: 29,
            expected: .serveStaleWhileRevalidating),
        Case(name: "stale past swr", freshness: swr, isStale: true, staleFor: 30, expected: .revalidate),
        Case(
            name: "stale past swr, the option", freshness: swr, isStale: true, staleFor: 3000,
            options: { $0.cache.http.servesStaleWhileRevalidating = true }, expected: .serveStaleWhileRevalidating),
        Case(
            name: "stale within swr, forced", freshness: swr, isStale: true, staleFor: 1,
            options: { $0.readPolicy = .revalidate }, expected: .revalidate),
        Case(
            name: "must-revalidate within swr", freshness: mustRevalidate, isStale: true, staleFor: 1,
            options: { $0.cache.http.servesStaleWhileRevalidating = true }, expected: .revalidate),
        Case(
            name: "no-cache within swr", freshness: noCache, isStale: true, staleFor: 1,
            options: { $0.cache.http.servesStaleWhileRevalidating = true }, expected: .revalidate),
        Case(
            name: "no-cache, no validators", freshness: noCache, isStale: true, staleFor: 1, canRevalidate: false,
            expected: .miss),
    ]

    @Test(arguments: cases) func decides(_ c: Case) {
        var options = ImageOptions()
        c.options(&options)
        let entry = StoredEntryRule.Entry(
            c.freshness, isStale: c.isStale, staleFor: c.staleFor, canRevalidate: c.canRevalidate)
        #expect(StoredEntryRule.decide(entry, options: options) == c.expected, "\(c.name)")
    }

    @Test func servesStaleAfterAFailureOnlyWhereAllowed() {
        let sie = EntryFreshness(freshUntil: 1000, lifetime: 60, staleIfError: 300)
        func entry(_ f: EntryFreshness, staleFor: Double) -> StoredEntryRule.Entry {
            StoredEntryRule.Entry(f, isStale: staleFor >= 0, staleFor: staleFor, canRevalidate: true)
        }
        let plain = ImageOptions()
        var lenient = ImageOptions()
        lenient.cache.http.servesStaleOnError = true
        let down = ImageDownloadError.badStatus(code: 503, retryAfter: nil)
        let gone = ImageDownloadError.badStatus(code: 404, retryAfter: nil)
        #expect(StoredEntryRule.servesStale(after: down, entry(sie, staleFor: 299), options: plain))
        #expect(!StoredEntryRule.servesStale(after: down, entry(sie, staleFor: 300), options: plain), "past the window")
        #expect(StoredEntryRule.servesStale(after: down, entry(sie, staleFor: 3000), options: lenient))
        #expect(!StoredEntryRule.servesStale(after: gone, entry(sie, staleFor: 1), options: lenient), "a 404 is final")
        #expect(
            !StoredEntryRule.servesStale(
                after: .timedOut(.seconds(1)), entry(Self.noCache, staleFor: 1), options: lenient))
        #expect(!StoredEntryRule.servesStale(after: down, entry(Self.mustRevalidate, staleFor: 1), options: lenient))
        #expect(
            !StoredEntryRule.servesStale(
                after: down, entry(EntryFreshness(freshUntil: 1000), staleFor: 1), options: plain))
        // A fresh entry whose forced revalidation failed may stand in when the options allow.
        #expect(StoredEntryRule.servesStale(after: down, entry(Self.mustRevalidate, staleFor: -5), options: lenient))
    }
}
