import Foundation
import MagpieServer
import Testing

/// thumbor's URL grammar, held to thumbor itself: `Tests/fixtures/thumbor/urls.json` is what
/// thumbor 7.8's own route and libthumbor's `CryptoURL` make of each path (written by
/// `scripts/thumbor-tables.py`), with thumbor's tests/test_url.py among them.
@Suite struct ThumborPathTests {
    struct Table: Decodable {
        var thumbor: String
        var paths: [Case]
        var signed: [Signed]
    }

    struct Case: Decodable {
        var path: String
        var thumbor: Parsed?
    }

    struct Signed: Decodable {
        var key: String
        var url: String
        var signature: String
        var signed: String
        var serverSignature: String
        var thumbor: Parsed?
    }

    struct Parsed: Decodable {
        var unsafe: Bool
        var hash: String?
        var debug, meta: Bool
        var trim: String?
        var crop: [Int]
        var adaptive, full, fitIn, horizontalFlip, verticalFlip: Bool
        var width, height: String
        var halign, valign: String
        var smart: Bool
        var filters: String
        var image: String
    }

    static let table = ThumborTables.load("urls.json", as: Table.self)

    func expectSame(_ path: String, _ expected: Parsed?, sourceLocation: SourceLocation = #_sourceLocation) {
        let parsed = try? ThumborPath.parse(path)
        guard let expected else {
            #expect(
                parsed == nil, "thumbor's route does not match \(path.debugDescription)", sourceLocation: sourceLocation
            )
            return
        }
        guard let p = parsed else {
            Issue.record("thumbor matches \(path.debugDescription); Magpie refused it", sourceLocation: sourceLocation)
            return
        }
        func length(_ s: String) -> Int? { s == "orig" ? nil : Int(s) ?? .max }
        let crop = p.crop.map { [$0.left, $0.top, $0.right, $0.bottom] } ?? [0, 0, 0, 0]
        let mine: [String] = [
            "\(p.unsafe)", p.signature ?? "-", "\(p.debug)", "\(p.meta)", p.trim ?? "-", "\(crop)", "\(p.adaptive)",
            "\(p.full)", "\(p.fitIn)", "\(p.horizontalFlip)", "\(p.verticalFlip)", "\(String(describing: p.width))",
            "\(String(describing: p.height))", p.halign, p.valign, "\(p.smart)", p.filters, p.image,
        ]
        let theirs: [String] = [
            "\(expected.unsafe)", expected.hash ?? "-", "\(expected.debug)", "\(expected.meta)", expected.trim ?? "-",
            "\(expected.crop)", "\(expected.adaptive)", "\(expected.full)", "\(expected.fitIn)",
            "\(expected.horizontalFlip)", "\(expected.verticalFlip)",
            "\(String(describing: length(expected.width)))", "\(String(describing: length(expected.height)))",
            expected.halign, expected.valign, "\(expected.smart)", expected.filters, expected.image,
        ]
        #expect(mine == theirs, "\(path.debugDescription)", sourceLocation: sourceLocation)
    }

    @Test func everyPathIsTakenApartAsThumborTakesIt() throws {
        let table = try #require(Self.table, "Tests/fixtures/thumbor/urls.json is read")
        #expect(table.thumbor == "7.8.0")
        #expect(table.paths.count > 60)
        for c in table.paths { expectSame(c.path, c.thumbor) }
    }

    @Test func signaturesAreLibthumborsAndCheckedOnThePathAsSent() throws {
        let table = try #require(Self.table)
        #expect(table.signed.count >= 6)
        for s in table.signed {
            // thumbor's server signs with the key as UTF-8; libthumbor's client, with a key
            // beyond ASCII, as Latin-1 (and thumbor refuses those URLs: so does Magpie).
            #expect(ThumborSignature.sign(s.signed, key: s.key) == s.serverSignature, "\(s.url)")
            if s.key.utf8.allSatisfy({ $0 < 0x80 }) {
                #expect(s.serverSignature == s.signature, "\(s.url)")
            } else {
                #expect(s.serverSignature != s.signature, "\(s.url)")
                continue
            }
            expectSame(s.url, s.thumbor)
            let p = try ThumborPath.parse(s.url)
            #expect(p.signature == s.signature && p.signed == s.signed, "\(s.url)")
            #expect(ThumborSignature.isValid(p, key: s.key), "\(s.url)")
            #expect(!ThumborSignature.isValid(p, key: s.key + "x"), "another key: \(s.url)")
            // A byte of the path changed, or the signature without its padding, no longer matches.
            var changed = p
            changed.signed = p.signed.replacingOccurrences(of: "x", with: "X")
            #expect(!ThumborSignature.isValid(changed, key: s.key), "\(s.url)")
            var unpadded = p
            unpadded.signature = p.signature?.replacingOccurrences(of: "=", with: "")
            #expect(!ThumborSignature.isValid(unpadded, key: s.key), "\(s.url)")
        }
        // The padding sent as %3D is the same signature (thumbor unquotes the segment).
        let first = try #require(table.signed.first)
        let quoted = "/" + first.signature.replacingOccurrences(of: "=", with: "%3D") + "/" + first.signed
        #expect(ThumborSignature.isValid(try ThumborPath.parse(quoted), key: first.key))
    }
}
