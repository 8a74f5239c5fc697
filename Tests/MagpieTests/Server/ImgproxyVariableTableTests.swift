import Foundation
import Testing

@testable import magpie_server

/// magpie-server's table of imgproxy's variables (`ImgproxyEnvironment`): every name of
/// imgproxy's list (`Tests/fixtures/imgproxy/variables.txt`) has exactly one row, every row is
/// in docs/configuration.md, and each kind of row does what it says.
@Suite struct ImgproxyVariableTableTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let names: [String] = {
        let text =
            (try? String(
                contentsOf: fixtures.appendingPathComponent("fixtures/imgproxy/variables.txt"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init).filter { $0.hasPrefix("IMGPROXY_") }
    }()

    @Test func everyVariableOfImgproxysListHasOneRow() throws {
        #expect(Self.names.count > 180, "the list is read")
        let rows = ImgproxyEnvironment.rows.map(\.variable)
        #expect(
            Set(rows).count == rows.count,
            "no variable has two rows: \(rows.filter { r in rows.filter { $0 == r }.count > 1 })")
        let missing = Self.names.filter { ImgproxyEnvironment.byName[$0] == nil }
        #expect(missing.isEmpty, "variables of imgproxy's list with no row: \(missing)")
        let extra = rows.filter { !Self.names.contains($0) }
        #expect(extra.isEmpty, "rows for names imgproxy does not read: \(extra)")
    }

    @Test func theDocumentationShowsEveryRow() throws {
        let docs = try String(
            contentsOf: Self.fixtures.deletingLastPathComponent().appendingPathComponent("docs/configuration.md"),
            encoding: .utf8)
        let undocumented = ImgproxyEnvironment.rows.map(\.variable).filter { !docs.contains("`\($0)`") }
        #expect(undocumented.isEmpty, "rows docs/configuration.md does not name: \(undocumented)")
    }

    @Test func readIgnoredAndRefusedRowsDoWhatTheySay() throws {
        let (arguments, notes) = try ImgproxyEnvironment.arguments(
            [
                "IMGPROXY_ARGUMENTS_SEPARATOR": ",", "IMGPROXY_URL_REPLACEMENTS": "s3x://*/=https://${1}.example/;a=b",
                "IMGPROXY_PATH_PREFIX": "images/?x", "IMGPROXY_SENTRY_DSN": "https://x@example/1",
                "IMGPROXY_IGNORE_SSL_VERIFICATION": "false", "IMGPROXY_NOT_A_THING": "1",
                "IMGPROXY_AUTO_WEBP": "true", "IMGPROXY_ENABLE_WEBP_DETECTION": "true",
            ], given: [])
        #expect(arguments.contains("--arguments-separator") && arguments.contains(","))
        #expect(arguments.filter { $0 == "--url-replacement" }.count == 2)
        #expect(arguments.contains("/images"), "imgproxy's URLPath: query cut, a leading / added")
        #expect(arguments.filter { $0 == "--auto-webp" }.count == 1, "two variables for one flag give it once")
        #expect(notes.contains { $0.hasPrefix("IMGPROXY_SENTRY_DSN: a vendor's error reporter") })
        #expect(notes.contains { $0.hasPrefix("IMGPROXY_NOT_A_THING is not one of imgproxy's variables") })
        #expect(!notes.contains { $0.contains("IMGPROXY_IGNORE_SSL_VERIFICATION") }, "false asks for nothing")
        for (name, value) in [
            ("IMGPROXY_IGNORE_SSL_VERIFICATION", "true"), ("IMGPROXY_USE_GCS", "1"), ("IMGPROXY_GCS_KEY", "{}"),
            ("IMGPROXY_NETWORK", "unix"), ("IMGPROXY_ENV_LOCAL_FILE_PATH", "/etc/imgproxy.env"),
            ("IMGPROXY_S3_ASSUME_ROLE_ARN", "arn:aws:iam::1:role/r"), ("IMGPROXY_SVG_UNLIMITED", "t"),
        ] {
            #expect(throws: ImgproxyEnvironment.Failure.self, "\(name)=\(value)") {
                try ImgproxyEnvironment.arguments([name: value], given: [])
            }
        }
        #expect(throws: Never.self) { try ImgproxyEnvironment.arguments(["IMGPROXY_NETWORK": "tcp4"], given: []) }
        // imgproxy's 0 for "no limit" keeps Magpie's bound: a server facing strangers is bounded.
        let (zeros, _) = try ImgproxyEnvironment.arguments(
            ["IMGPROXY_MAX_SRC_FILE_SIZE": "0", "IMGPROXY_MAX_CLIENTS": "0", "IMGPROXY_MAX_RESULT_DIMENSION": "0"],
            given: [])
        #expect(zeros.isEmpty, "\(zeros)")
        #expect(throws: ImgproxyEnvironment.Failure.self) {
            try ImgproxyEnvironment.arguments(["IMGPROXY_URL_REPLACEMENTS": "no-equals"], given: [])
        }
    }
}
