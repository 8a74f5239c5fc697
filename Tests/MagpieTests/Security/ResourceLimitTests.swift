import Foundation
import MagpieTestSupport
import Testing

@testable import Magpie

/// What one small file or many concurrent decodes can do to the machine's memory.
@Suite struct ResourceLimitTests {
    /// The decode memory budget is process-wide, so this runs in a helper process: it takes most
    /// of a 64 MB budget, a plain decode is refused with `budgetInUse`, a pipeline retrieval
    /// waits (the helper sees it waiting before it frees the budget), then completes.
    @Test func thePipelineWaitsForTheDecodeBudget() throws {
        let dir = try TemporaryDirectory()
        let child = try ChildProcess(Helper.writer, ["budget-wait", dir.path("cache")])
        #expect(child.readLine() == "sync: budgetInUse")
        #expect(child.readLine() == "waiting")
        #expect(child.readLine() == "done 2000x1000, waits 1, in use 0")
        child.process.waitUntilExit()
        #expect(child.process.terminationStatus == 0)
    }

    @Test func theDefaultBudgetIsAQuarterOfTheProcessMemory() {
        #expect(DecodeMemoryBudget.limit > 0)
        #expect(DecodeMemoryBudget.limit <= SystemMemory.availableToProcess / 4 + (1 << 26))
    }
}
