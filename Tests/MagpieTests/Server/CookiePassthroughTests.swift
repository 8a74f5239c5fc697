import Foundation
import Magpie
import MagpieServer
import Testing

@testable import MagpieServer
@testable import magpie_server

/// Which cookies go to which source: imgproxy's jar rules (RFC 6265 for a cookie the base URL set
/// with no attributes, Go's `Request.Cookies` parsing), and the start-up checks.
@Suite struct CookiePassthroughTests {
    static func request(_ cookie: String..., headers: [(String, String)] = []) -> ServiceRequest {
        ServiceRequest(
            method: "GET", target: "/", headers: cookie.map { ("Cookie", $0) } + headers.map { ($0.0, $0.1) })
    }

    @Test func theBasesHostAndPathDecide() throws {
        let jar = CookiePassthrough(baseURL: URL(string: "https://Example.com:8443/app/page"))
        let r = Self.request("a=1; b=2")
        for (source, sent) in [
            ("https://example.com/app/x.jpg", true), ("http://EXAMPLE.com./app/x.jpg", true),
            ("https://example.com:9/app", true), ("https://example.com/app/", true),
            ("https://example.com/apple.jpg", false), ("https://example.com/x.jpg", false),
            ("https://cdn.example.com/app/x.jpg", false), ("https://example.com.evil/app/x.jpg", false),
            ("s3://example.com/app/x.jpg", false), ("local:///app/x.jpg", false),
        ] {
            #expect((jar.header(for: URL(string: source)!, request: r) == "a=1; b=2") == sent, "\(source)")
        }
        #expect(jar.header(for: URL(string: "https://example.com/app/x")!, request: Self.request()) == nil)
        let root = CookiePassthrough(baseURL: URL(string: "http://[::1]:8080"))
        #expect(root.header(for: URL(string: "http://[::1]/any/x.jpg")!, request: r) == "a=1; b=2")
        let all = CookiePassthrough(baseURL: URL(string: "https://example.com/app/"), all: true)
        #expect(all.header(for: URL(string: "https://elsewhere.example/x.jpg")!, request: r) == "a=1; b=2")
        #expect(all.header(for: URL(string: "s3://bucket/x.jpg")!, request: r) == nil, "only http(s) sends cookies")
    }

    @Test func withoutABaseTheRequestsOwnHostIsIt() {
        let jar = CookiePassthrough()
        let source = URL(string: "http://img.example/x.jpg")!
        #expect(jar.header(for: source, request: Self.request("s=1", headers: [("Host", "img.example:8080")])) == "s=1")
        #expect(jar.header(for: source, request: Self.request("s=1", headers: [("Host", "other.example")])) == nil)
        let forwarded = Self.request(
            "s=1",
            headers: [("Host", "internal:9000"), ("X-Forwarded-Host", "img.example"), ("X-Forwarded-Proto", "https")])
        #expect(jar.header(for: source, request: forwarded) == "s=1", "any scheme of the host: no Secure cookies here")
        let odd = Self.request("s=1", headers: [("Host", "img.example"), ("X-Forwarded-Proto", "ftp")])
        #expect(jar.header(for: source, request: odd) == nil, "a jar keeps no cookie an ftp URL set")
        #expect(jar.header(for: source, request: Self.request("s=1")) == nil, "no host, no base")
    }

    /// Go's `Request.Cookies`: pairs divided by `;` across every field; a bad name or value is
    /// skipped, quotes around a value removed (and written again where a space or comma needs them).
    @Test func cookiesAreReadAsGoReadsThem() {
        let r = Self.request(" a=1 ;b=\"two\";;bad name=x; c=\"x\\y\"; =v; d=e=f", "e=h i; f=")
        let all = CookiePassthrough(all: true)
        let source = URL(string: "http://x.example/")!
        #expect(all.header(for: source, request: r) == "a=1; b=two; d=e=f; e=\"h i\"; f=")
        let jar = CookiePassthrough(baseURL: URL(string: "http://x.example/"))
        let twice = Self.request("a=1; b=2", "a=3")
        #expect(jar.header(for: source, request: twice) == "a=3; b=2", "a jar holds one cookie per name")
        #expect(all.header(for: source, request: twice) == "a=1; b=2; a=3", "all of them, as imgproxy's list")
        #expect(all.header(for: source, request: Self.request("x=\u{7F}; y=\u{E9}")) == nil)
    }

    @Test func rfc6265sDefaultPathAndPathMatch() {
        for (path, expected) in [("", "/"), ("/", "/"), ("/a", "/"), ("/a/", "/a"), ("/a/b", "/a"), ("x/y", "/")] {
            #expect(CookiePassthrough.defaultPath(path) == expected, "\(path)")
        }
        #expect(CookiePassthrough.pathMatches("/a", "/a") && CookiePassthrough.pathMatches("/a", "/a/b"))
        #expect(CookiePassthrough.pathMatches("/a/", "/a/b") && CookiePassthrough.pathMatches("/", ""))
        #expect(!CookiePassthrough.pathMatches("/a", "/ab") && !CookiePassthrough.pathMatches("/a/b", "/a"))
    }

    /// The variables and flags, and what start refuses: every cookie to every source only where
    /// strangers cannot write the URLs.
    @Test func theVariablesAndTheStartChecks() throws {
        let (arguments, _) = try ImgproxyEnvironment.arguments(
            [
                "IMGPROXY_COOKIE_PASSTHROUGH": "true", "IMGPROXY_COOKIE_BASE_URL": "https://example.com/app/",
                "IMGPROXY_COOKIE_PASSTHROUGH_ALL": "1",
            ], given: [])
        var c = ServiceConfiguration()
        var d = ImageDownloader.Config()
        try HeaderOptions.parse(arguments).apply(to: &c, download: &d)
        #expect(c.cookiePassthrough == CookiePassthrough(baseURL: URL(string: "https://example.com/app/"), all: true))
        #expect(c.cookieProblem()?.hasPrefix("unsafe:") == true, "unsigned and any source: refused")
        c.allowedSources = ["https://example.com/"]
        #expect(c.cookieProblem() == nil)
        c.allowedSources = []
        c.keys = [try #require(ServiceConfiguration.SigningKey(hexKey: "6b6579", hexSalt: "73616c74"))]
        #expect(c.cookieProblem() == nil)
        c.cookiePassthrough = CookiePassthrough(baseURL: URL(string: "ftp://example.com/"))
        #expect(c.cookieProblem() != nil)
        for bad in ["ftp://example.com/", "/relative", "https:///nohost"] {
            var c = ServiceConfiguration()
            #expect(throws: (any Error).self, "\(bad)") {
                try HeaderOptions.parse(["--cookie-passthrough", "--cookie-base-url", bad]).apply(to: &c, download: &d)
            }
        }
        var off = ServiceConfiguration()
        try HeaderOptions.parse(["--cookie-passthrough-all"]).apply(to: &off, download: &d)
        #expect(off.cookiePassthrough == nil, "as imgproxy: the other two act only with passthrough on")
    }
}
