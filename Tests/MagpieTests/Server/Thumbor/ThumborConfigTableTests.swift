import Foundation
import MagpieServer
import Testing

@testable import magpie_server

/// magpie-server's table of thumbor's configuration keys (``ThumborConfig``): every key thumbor
/// 7.8 defines (`Tests/fixtures/thumbor/config.json`, from its `Config.class_defaults`) has one
/// row, and a thumbor.conf is read into the settings and arguments it says.
@Suite struct ThumborConfigTableTests {
    struct Keys: Decodable {
        struct Key: Decodable {
            let key: String
            let `default`: String
        }
        let thumbor: String
        let keys: [Key]
    }

    @Test func everyKeyOfThumborsConfigurationHasOneRow() throws {
        let table = try #require(ThumborTables.load("config.json", as: Keys.self))
        #expect(table.keys.count == 133)
        let names = table.keys.map(\.key)
        for name in names { #expect(ThumborConfig.byKey[name] != nil, "\(name) has no row") }
        #expect(ThumborConfig.rows.count == Set(ThumborConfig.rows.map(\.key)).count, "a key with two rows")
        #expect(Set(ThumborConfig.rows.map(\.key)).subtracting(names).isEmpty, "a row for a key thumbor lacks")
    }

    /// Each key's default value (thumbor's own, as Python prints it) is read without complaint,
    /// so a thumbor.conf that spells out the defaults (`thumbor-config` writes one) starts.
    @Test func thumborsDefaultsAreAllAccepted() throws {
        let table = try #require(ThumborTables.load("config.json", as: Keys.self))
        let text = table.keys.map { "\($0.key) = \($0.default)" }.joined(separator: "\n")
        let values = ThumborConfFile.values(try ThumborConfFile.parse(text))
        let read = try ThumborConfig.read(values, given: [], file: "thumbor.conf")
        // thumbor's default key, written out, is taken as written; left out, no key signs (a key
        // printed in thumbor's documentation would sign for anyone: docs/thumbor.md).
        var defaults = ThumborSettings()
        defaults.securityKey = "MY_SECURE_KEY"
        #expect(read.settings == defaults, "the defaults are thumbor's")
        #expect(ThumborSettings().securityKey == nil)
        // FILE_LOADER_ROOT_PATH is an argument even with the HTTP loader (it is only used with
        // the file loader); the redirects' two keys agree.
        #expect(read.arguments.contains("--user-agent") && read.arguments.contains("--connect-timeout"))
        #expect(!read.notes.contains { $0.contains("not one of thumbor's keys") })
    }

    @Test func aConfigurationIsReadIntoSettingsAndArguments() throws {
        let text = """
            from os.path import expanduser, join
            SECURITY_KEY = 'k3y'
            ALLOW_UNSAFE_URL = False
            ALLOWED_SOURCES = ['example.com', 'img\\\\.example\\\\.org']
            MAX_AGE = 60 * 60 * 24
            QUALITY = 90
            WEBP_QUALITY = None
            AUTO_WEBP = True
            FILTERS = ['thumbor.filters.quality', 'thumbor.filters.format', 'my.plugin.filter']
            HTTP_LOADER_CONNECT_TIMEOUT = 1.5
            HTTP_LOADER_FOLLOW_REDIRECTS = False
            HEALTHCHECK_ROUTE = '/up'
            REDIS_QUEUE_SERVER_HOST = 'redis'
            MY_OWN_KEY = 1
            """
        let read = try ThumborConfig.read(
            ThumborConfFile.values(try ThumborConfFile.parse(text)), given: ["--user-agent", "x"], file: "t.conf")
        var expected = ThumborSettings()
        (expected.securityKey, expected.allowsUnsafe, expected.maxAge, expected.quality) = ("k3y", false, 86_400, 90)
        expected.allowedSources = ["example.com", "img\\.example\\.org"]
        (expected.autoWebP, expected.filters, expected.healthCheckRoute) = (true, ["quality", "format"], "/up")
        #expect(read.settings == expected)
        #expect(read.arguments == ["--connect-timeout", "2", "--max-redirects", "0"])
        #expect(read.notes.contains { $0.hasPrefix("t.conf:13: REDIS_QUEUE_SERVER_HOST:") && $0.hasSuffix("ignored") })
        #expect(read.notes.contains { $0 == "t.conf:14: MY_OWN_KEY is not one of thumbor's keys; ignored" })
    }

    /// A value of the wrong kind, or one the server will not honour, stops the start with the
    /// file, the line, the key and the reason.
    @Test(arguments: [
        ("QUALITY = 'high'", "t.conf:1: QUALITY = 'high': a whole number from 1 to 100"),
        (
            "HTTP_LOADER_VALIDATE_CERTS = False",
            "t.conf:1: HTTP_LOADER_VALIDATE_CERTS = False: origins' certificates are always checked here"
        ),
        ("UPLOAD_ENABLED = True", "t.conf:1: UPLOAD_ENABLED = True: not built: this server does not take uploads"),
        (
            "LOADER = 'thumbor_aws.loader'",
            "t.conf:1: LOADER = 'thumbor_aws.loader': thumbor_aws.loader is not a loader this server has (http_loader, file_loader)"
        ),
        (
            "URL_SIGNER = 'my.signer'",
            "t.conf:1: URL_SIGNER = 'my.signer': only thumbor's default signer (base64 HMAC-SHA1) is built"
        ),
    ])
    func refusalsNameTheLineAndTheReason(_ line: String, _ message: String) throws {
        let values = ThumborConfFile.values(try ThumborConfFile.parse(line))
        #expect(throws: ThumborConfig.Failure.self) { try ThumborConfig.read(values, given: [], file: "t.conf") }
        do {
            _ = try ThumborConfig.read(values, given: [], file: "t.conf")
        } catch {
            #expect(error.description == message)
        }
    }
}
