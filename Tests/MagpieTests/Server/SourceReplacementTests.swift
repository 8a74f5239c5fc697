import Testing

@testable import MagpieServer

/// `IMGPROXY_URL_REPLACEMENTS` patterns: a prefix with `*` for any run but `/`, greedy as Go's
/// regular expression `^…([^/]*)…` is, and `$N`/`${N}` in the replacement as Go expands them.
@Suite struct SourceReplacementTests {
    func apply(_ pattern: String, _ replacement: String, _ source: String) throws -> String {
        try #require(SourceReplacement(pattern: pattern, replacement: replacement)).apply(source)
    }

    @Test func prefixesAndStarsAsImgproxysRegularExpressions() throws {
        #expect(try apply("test://", "http://", "test://a/b.jpg") == "http://a/b.jpg")
        #expect(try apply("test://", "http://", "xtest://a") == "xtest://a", "matched at the start only")
        #expect(try apply("s://*/", "http://h/${1}/", "s://bucket/key.jpg") == "http://h/bucket/key.jpg")
        #expect(try apply("s://*/", "$1", "s://no-slash") == "s://no-slash", "a star never crosses /")
        // Greedy: the first star takes the longest run that still lets the rest match.
        #expect(try apply("a*b*c", "[$1|$2]", "axbybzc.jpg") == "[xby|z].jpg")
        #expect(try apply("a*.*", "[$1|$2]", "a.b.c/d") == "[.b|c]/d")
        #expect(try apply("*", "<$1>", "abc/def") == "<abc>/def")
        #expect(try apply("x*", "$0!", "xyz/w") == "xyz!/w")
        // Go's expansion: $$ is $, a name that is no group gives nothing, a lone $ stays.
        #expect(try apply("a*", "$$${1}x", "abc") == "$bcx")
        #expect(try apply("a*", "$1x", "abc") == "", "$1x names the group `1x`, which does not exist")
        #expect(try apply("a*", "${9}-$", "abc") == "-$")
        #expect(try apply("a.b", "z", "a.b/c") == "z/c", "no character is special but *")
    }

    @Test func patternsAndListsThatAreRefused() {
        #expect(SourceReplacement(pattern: "", replacement: "x") == nil)
        #expect(SourceReplacement(pattern: String(repeating: "*a", count: 17), replacement: "") == nil)
        #expect(SourceReplacement.list("a=b;c=d")?.count == 2)
        #expect(SourceReplacement.list("a=b=c")?.first?.replacement == "b=c")
        #expect(SourceReplacement.list("a=b;") == nil && SourceReplacement.list("ab") == nil)
    }

    /// Stars around many candidate ends (a hostile source of 16 KiB without a slash) are decided by
    /// the position tables, not by trying every split: the answer is the greedy one.
    @Test func aLongHostileSourceIsMatchedInOnePass() throws {
        let long = "a" + String(repeating: "b", count: 16_000)
        #expect(try apply("a*b*b*b*c", "x", long) == long, "no c: no match")
        #expect(try apply("a*b*b*b", "[$1|$2|$3]", long + "/") == "[\(String(repeating: "b", count: 15_997))||]/")
    }
}
