import Foundation
import Testing

@testable import MagpieServer

/// thumbor's geometry, held to thumbor itself: `Tests/fixtures/thumbor/geometry.json` records
/// the crops, resizes and flips thumbor 7.8's handler and `Transformer` ask of an engine for
/// 648 pairs of a source size and a request (`scripts/thumbor-tables.py`, thumbor's own
/// tests/fixtures/transformer_test_data.py sizes among them); where thumbor raises (a 500),
/// Magpie's planner refuses too.
@Suite struct ThumborGeometryTests {
    struct Table: Decodable {
        var thumbor: String
        var cases: [Case]
    }

    enum Calls: Decodable {
        case steps([[Int]], names: [String])
        case error(String)

        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let text = try? c.decode(String.self) {
                self = .error(text)
                return
            }
            let raw = try c.decode([[Step]].self)
            self = .steps(raw.map { $0.compactMap(\.number) }, names: raw.map { $0.first?.name ?? "" })
        }
    }

    enum Step: Decodable {
        case name(String)
        case int(Int)
        var number: Int? { if case .int(let n) = self { n } else { nil } }
        var name: String? { if case .name(let s) = self { s } else { nil } }
        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let n = try? c.decode(Int.self) { self = .int(n) } else { self = .name(try c.decode(String.self)) }
        }
    }

    enum Length: Decodable {
        case n(Int)
        case orig
        var value: Int? { if case .n(let v) = self { v } else { nil } }
        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let n = try? c.decode(Int.self) { self = .n(n) } else { self = .orig }
        }
    }

    struct Case: Decodable {
        var source: [Int]
        var width, height: Length
        var fitIn, adaptive, full, stretch: Bool
        var crop: [Int]?
        var halign, valign: String
        var flip: [Bool]
        var max: [Int]
        var calls: Calls
    }

    static let table = ThumborTables.load("geometry.json", as: Table.self)

    static func describe(_ steps: [ThumborGeometry.Step]) -> [String] {
        steps.map {
            switch $0 {
            case .crop(let l, let t, let r, let b): "crop \(l) \(t) \(r) \(b)"
            case .resize(let w, let h): "resize \(w) \(h)"
            case .flipHorizontally: "flip_horizontally"
            case .flipVertically: "flip_vertically"
            }
        }
    }

    @Test func everyCaseGivesThumborsStepsToThePixel() throws {
        let table = try #require(Self.table, "Tests/fixtures/thumbor/geometry.json is read")
        #expect(table.thumbor == "7.8.0")
        #expect(table.cases.count > 600)
        var refused = 0
        for c in table.cases {
            var g = ThumborGeometry()
            (g.width, g.height) = (c.width.value, c.height.value)
            g.crop = c.crop.map { ($0[0], $0[1], $0[2], $0[3]) }
            (g.fitIn, g.adaptive, g.full, g.stretch) = (c.fitIn, c.adaptive, c.full, c.stretch)
            (g.halign, g.valign) = (c.halign, c.valign)
            (g.flipHorizontally, g.flipVertically) = (c.flip[0], c.flip[1])
            (g.maxWidth, g.maxHeight) = (c.max[0], c.max[1])
            let mine = try? g.steps(sourceWidth: c.source[0], sourceHeight: c.source[1])
            switch c.calls {
            case .error:
                refused += 1
                #expect(mine == nil, "thumbor raises for \(c)")
            case .steps(let numbers, let names):
                let theirs = zip(names, numbers).map { ([$0] + $1.map(String.init)).joined(separator: " ") }
                #expect(mine.map(Self.describe) == theirs, "\(c.source) \(c.width) \(c.height) fit \(c.fitIn) \(c)")
            }
        }
        #expect(refused > 0 && refused < 60, "the table holds thumbor's failures too")
    }

    /// fuzz_thumbor found a trap: a side of 9988882888884999999999 under `fit-in` against a tall
    /// source made a resize too large for an `Int`. Now unanswerable (a failed request), as
    /// thumbor's engine fails too; the input is a seed of the fuzzer
    /// (`Tests/fuzz/crashes/thumbor/`).
    @Test func absurdSidesAreUnanswerableNotATrap() throws {
        let path = try ThumborPath.parse("/fit-in/9988882888884999999999x1/h3A%2F%2999x1/1jtp%3A%2F%.gif")
        var g = ThumborGeometry()
        (g.width, g.height, g.fitIn) = (path.width, path.height, path.fitIn)
        #expect(throws: ThumborGeometry.Unanswerable.self) { try g.steps(sourceWidth: 1, sourceHeight: 29_185) }
        g.fitIn = false
        #expect(throws: ThumborGeometry.Unanswerable.self) { try g.steps(sourceWidth: 1, sourceHeight: 29_185) }
    }
}
