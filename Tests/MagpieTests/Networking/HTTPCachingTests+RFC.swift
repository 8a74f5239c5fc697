import Foundation
import Testing

@testable import Magpie

/// The `required` cases of the public HTTP caching test suite (RFC 9111 MUSTs) that an image
/// client meets, on the header level: `Age` takes its first value, an `Expires` that is not an
/// HTTP-date (strict structure, any case) or that conflicts is already expired, and only
/// heuristically cacheable statuses are stored without explicit freshness.
extension HTTPCachingTests {
    @Test func httpDatesAreStrictOnStructureAndLenientOnCase() {
        let aug18 = HTTPDate.parse("Thu, 18 Aug 2050 02:01:18 GMT")
        #expect(aug18 == Date(timeIntervalSince1970: 2_544_400_878))
        for caseVariant in [
            "THU, 18 Aug 2050 02:01:18 GMT", "Thu, 18 AUG 2050 02:01:18 GMT", "thu, 18 aug 2050 02:01:18 gMT",
        ] {
            #expect(HTTPDate.parse(caseVariant) == aug18, "\(caseVariant)")
        }
        #expect(HTTPDate.parse("  Thu, 18 Aug 2050 02:01:18 GMT\t") == aug18, "optional whitespace around the value")
        #expect(HTTPDate.parse("Thursday, 18-Aug-50 02:01:18 GMT") == aug18, "RFC 850")
        #expect(HTTPDate.parse("THURSDAY, 18-aug-50 02:01:18 Gmt") == aug18, "RFC 850, any case")
        #expect(HTTPDate.parse("Thu Aug 18 02:01:18 2050") == aug18, "asctime")
        #expect(HTTPDate.parse("Mon Aug  8 02:01:18 2050") == aug18!.addingTimeInterval(-10 * 86_400))
        #expect(HTTPDate.parse("Tue, 19 Jan 2038 14:14:08 GMT") == Date(timeIntervalSince1970: 2_147_523_248))
        #expect(HTTPDate.parse("Sun, 21 Nov 2286 04:46:39 GMT") == Date(timeIntervalSince1970: 10_000_039_599))
        for bad in [
            "Thu, 18  Aug  2050 02:01:18 GMT",  // doubled spaces
            "Thu, 18 Aug 2050 2:01:18 GMT",  // one-digit hour
            "Thu, 18 Aug 2050 02:01:18 UTC", "Thu, 18 Aug 2050 02:01:18 AEST",  // other zones
            "Thu, 18 Aug 50 02:01:18 GMT",  // two-digit year in the IMF form
            "Thu 18 Aug 2050 02:01:18 GMT",  // no comma
            "Thu, 18-Aug-2050 02:01:18 GMT",  // dashes in the IMF form
            "Thu, 18 Aug 2050 02.01.18 GMT",  // periods in the time
            "Thu, 8 Aug 2050 02:01:18 GMT",  // one-digit day in the IMF form
            "Thx, 18 Aug 2050 02:01:18 GMT", "Thursday, 18 Aug 2050 02:01:18 GMT",  // no such day name
            "Thu, 30 Feb 2050 02:01:18 GMT", "Thu, 31 Apr 2050 02:01:18 GMT",  // no such day
            "Thu Aug 18 02:01:18  2050", "Thu Aug 8 02:01:18 2050",  // asctime with wrong spacing
            "Thu, 18 Aug 2050 02:01:18 GMT GMT", "Thu, 18 Aug 2050 02:01:18 GM", "Thu, +8 Aug 2050 02:01:18 GMT",
            "Thu, 18 Aug 2050 02:01:18 G\u{e9}", "Thu, 18 Aug 2050 02:01:18 \u{1F600}",
        ] {
            #expect(HTTPDate.parse(bad) == nil, "\(bad)")
        }
    }

    @Test func anInvalidOrConflictingExpiresIsAlreadyExpired() {
        let now = Date(timeIntervalSince1970: 2_000_000_000)
        for bad in ["Thu, 18  Aug  2050 02:01:18 GMT", "Thu, 18 Aug 2050 2:01:18 GMT", "0", "-1", ""] {
            let h = headers([("Expires", bad)])
            #expect(h.expires == .distantPast && h.freshnessLifetime(receivedAt: now)! < 0, "\(bad)")
        }
        // Two different lines: stale, whichever came last (both invalid, or both valid).
        let two = headers([("Expires", "Thu, 18 Aug 2050 2:01:18 GMT"), ("Expires", "Thu, 18 Aug 2050 02:01:19 GMT")])
        #expect(two.expires == .distantPast)
        let valid = headers([
            ("Expires", "Thu, 18 Aug 2050 02:01:18 GMT"), ("Expires", "Thu, 18 Aug 2050 02:01:19 GMT"),
        ])
        #expect(valid.expires == .distantPast)
        let same = headers([("Expires", "Thu, 18 Aug 2050 02:01:18 GMT"), ("expires", "thu, 18 aug 2050 02:01:18 gmt")])
        #expect(same.expires == HTTPDate.parse("Thu, 18 Aug 2050 02:01:18 GMT"))
        // Wrong case is still a future date; an invalid Date is ignored (Expires counts from arrival).
        let lenient = headers([("Expires", "Thu, 18 AUG 2050 02:01:18 gMT"), ("Date", "foo")])
        #expect(lenient.date == nil && lenient.freshnessLifetime(receivedAt: now)! > 0)
        // The first Date line counts.
        let dates = headers([("Date", "Thu, 18 Aug 2050 02:01:18 GMT"), ("Date", "Fri, 19 Aug 2050 02:01:18 GMT")])
        #expect(dates.date == HTTPDate.parse("Thu, 18 Aug 2050 02:01:18 GMT"))
    }

    @Test func ageTakesTheFirstValue() {
        let now = Date(timeIntervalSince1970: 2_000_000_000)
        func age(_ lines: String...) -> HTTPCacheHeaders {
            headers([("Cache-Control", "max-age=3600")] + lines.map { ("Age", $0) })
        }
        #expect(age("7200, 0").age == 7200 && age("7200, 0").freshnessLifetime(receivedAt: now)! < 0, "stale")
        #expect(age("0, 7200").age == 0 && age("0, 7200").freshnessLifetime(receivedAt: now) == 3600, "fresh")
        #expect(age("7200", "0").age == 7200, "the first line wins")
        #expect(age("0", "7200").age == 0)
        #expect(age("0, 0").age == 0 && age("3600", "3600").age == 3600)
        #expect(age("7200;foo=bar").age == 7200 && age(" 7200 ").age == 7200)
        for ignored in ["abc", "-7200", "7200.0", "", ","] {
            #expect(age(ignored).age == nil && age(ignored).freshnessLifetime(receivedAt: now) == 3600, "\(ignored)")
        }
        #expect(age("2147483647").freshnessLifetime(receivedAt: now)! < 0)
        #expect(age("2147483648").age == Int(Int32.max) && age("99999999999999999999").age == Int(Int32.max))
    }

    @Test func onlyHeuristicallyCacheableStatusesAreStoredWithoutExplicitFreshness() {
        let validatorsOnly = [HTTPHeaderField("Last-Modified", "Thu, 18 Aug 2050 02:01:18 GMT")]
        for code in [200, 203] {
            #expect(HTTPCacheHeaders(validatorsOnly, statusCode: code).isStorable, "\(code)")
        }
        for code in [201, 202, 205, 299] {
            #expect(!HTTPCacheHeaders(validatorsOnly, statusCode: code).isStorable, "\(code)")
            let explicit = HTTPCacheHeaders(
                validatorsOnly + [HTTPHeaderField("Cache-Control", "max-age=60")], statusCode: code)
            #expect(explicit.isStorable, "\(code) with max-age")
            let expires = HTTPCacheHeaders(
                validatorsOnly + [HTTPHeaderField("Expires", "Thu, 18 Aug 2050 02:01:18 GMT")], statusCode: code)
            #expect(expires.isStorable, "\(code) with Expires")
            let isPublic = HTTPCacheHeaders(
                validatorsOnly + [HTTPHeaderField("Cache-Control", "public")], statusCode: code)
            #expect(isPublic.isPublic && isPublic.isStorable, "\(code) with public")
        }
        #expect(!headers([("Cache-Control", "max-age=60, no-store")]).isStorable)
        #expect(HTTPCacheHeaders().statusCode == 200 && HTTPCacheHeaders().isStorable)
    }
}
