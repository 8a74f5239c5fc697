import Testing

@testable import MagpieServer

/// The option table: one row per option, every name answering to exactly one row, and a row for
/// every option docs/service.md lists (short name first).
@Suite struct URLOptionTableTests {
    @Test func everyNameBelongsToOneRow() {
        let names = URLOption.table.flatMap(\.names)
        #expect(Set(names).count == names.count, "a name in two rows")
        #expect(URLOption.byName.count == names.count)
        #expect(URLOption.table.allSatisfy { !$0.names.isEmpty })
    }

    @Test func theTableHoldsTheDocumentedOptions() {
        let short = URLOption.table.map { $0.names[0] }
        #expect(
            short == [
                "rs", "s", "rt", "w", "h", "el", "g", "dpr", "q", "exp", "cb", "f", "fn", "att", "scp", "t", "c",
                "mw", "mh", "z", "ex", "exar", "fq", "mb", "skp", "raw", "ar", "sm", "ph", "kcr", "eth", "msr", "msfs",
                "maf",
                "mafr", "mrd", "bl", "sh", "pix", "rot", "fl", "bri", "co", "sa", "pd", "bg", "wm",
            ])
        #expect(URLOption.byName["resizing_type"]?.stage == .resize && URLOption.byName["ext"]?.stage == .output)
        #expect(URLOption.byName["watermark"]?.stage == .effects && URLOption.byName["expires"]?.stage == .request)
    }

    @Test func aRowParsesThroughTheTable() throws {
        var options = ProcessingOptions()
        try URLOption.byName["width"]!.apply(&options, ["300"])
        try URLOption.byName["bg"]!.apply(&options, ["ff8800"])
        #expect(options.width == 300 && options.effects.background != nil)
        #expect(throws: ServiceError.badOption) { try URLOption.byName["w"]!.apply(&options, ["-1"]) }
        #expect(throws: ServiceError.badOption) { try URLOption.byName["q"]!.apply(&options, ["80", "1"]) }
    }

    /// Every option that changes the result changes the variant's name (its row's part, or the
    /// part of the row that names what it sets), or, where the server's defaults take part, the
    /// variant's identifier; the others change neither. Every row is in one of the three lists.
    @Test func everyOptionThatChangesTheResultNamesTheVariant() throws {
        let base = ["w:10", "h:10"]
        let named = [
            "rs:fill:10:20", "s:20:10", "rt:fill", "w:20", "h:20", "el:1", "g:ea", "dpr:2", "q:50", "cb:x", "t:10",
            "c:5:5", "mw:20", "mh:20", "z:2", "ex:1", "exar:1", "msr:1", "msfs:100", "maf:2", "mafr:1", "bl:1", "sh:1",
            "pix:2", "rot:90", "fl:1:0", "bri:10", "co:1.1", "sa:0.5", "pd:2", "bg:ff0000", "wm:0.5",
        ]
        let identified = ["f:png", "fq:jpg:50", "mb:1000", "ar:0", "kcr:1", "eth:1", "scp:0"]
        let neither = ["exp:4102444800", "fn:a", "att:1", "skp:jpg", "raw:1", "sm:1", "ph:1", "mrd:100"]
        let all = Set((named + identified + neither).map { String($0.split(separator: ":")[0]) })
        #expect(all == Set(URLOption.table.map { $0.names[0] }))
        let plain = try ProcessingOptions.parse(base, presets: [:])
        func identifier(_ o: ProcessingOptions) -> String {
            // As the service builds it: `scp` decides whether the colour profile is kept.
            Variant(
                o, format: o.format ?? "jpg", limits: .init(pixels: 1 << 30, frames: 1, framePixels: 1 << 30),
                keepsColorProfile: o.stripsColorProfile == false
            ).processor.identifier
        }
        for option in named {
            #expect(
                try ProcessingOptions.parse(base + [option], presets: [:]).variantName != plain.variantName, "\(option)"
            )
        }
        for option in identified {
            let o = try ProcessingOptions.parse(base + [option], presets: [:])
            #expect(o.variantName == plain.variantName && identifier(o) != identifier(plain), "\(option)")
        }
        for option in neither {
            let o = try ProcessingOptions.parse(base + [option], presets: [:])
            #expect(o.variantName == plain.variantName && identifier(o) == identifier(plain), "\(option)")
        }
    }
}
