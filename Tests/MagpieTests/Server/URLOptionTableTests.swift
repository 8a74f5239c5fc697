import Testing

@testable import MagpieServer

/// The option table: one row per option, every name answering to exactly one row, and a row for
/// every option the README lists (short name first).
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
                "rs", "s", "rt", "w", "h", "el", "g", "dpr", "exp", "cb", "q", "f", "fn", "att", "scp", "c", "t",
                "mw", "mh", "z", "ex", "exar", "fq", "mb", "skp", "raw", "ar", "sm", "kcr", "eth", "msr", "msfs", "maf",
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
}
