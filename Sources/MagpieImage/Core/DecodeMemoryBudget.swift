internal import CMagpie

/// The process-wide decode memory budget (the C core's `magpie_set_memory_budget`): the bytes
/// every decode in flight charges together (outputs, buffers, codec state such as a progressive
/// JPEG's coefficients). Without it, decodes running one per core could each take the per-decode
/// limit (1 GiB) at once. The default is a quarter of the memory the process may use
/// (`SystemMemory/availableToProcess`, as the memory cache computes it).
///
/// A decode that does not fit beside the others throws ``CoreFailure/Code/budgetInUse``; the
/// pipeline (`ImageManager`) then waits for a decode to finish and tries again. One that would
/// not fit even alone throws ``CoreFailure/Code/memoryLimitExceeded``.
public enum DecodeMemoryBudget {
    /// Set once, before the first decode, unless a caller set a budget first.
    private static let configured: Bool = {
        if magpie_memory_budget() == 0 {
            magpie_set_memory_budget(UInt64(max(1 << 26, SystemMemory.availableToProcess / 4)))
        }
        return true
    }()

    private static let waiters = Locked<(epoch: UInt64, list: [CheckedContinuation<Void, Never>])>((0, []))

    /// The budget in bytes; 0 for none (each decode is then bounded by its own limit only).
    public static var limit: Int {
        get {
            _ = configured
            return Int(clamping: magpie_memory_budget())
        }
        set {
            _ = configured
            magpie_set_memory_budget(UInt64(max(0, newValue)))
            finished()  // a larger budget may let waiters in
        }
    }

    /// Bytes charged right now by decodes in flight and by ``reserve(_:)``.
    public static var inUse: Int { Int(clamping: magpie_memory_in_use()) }

    /// Tasks waiting for a decode to finish.
    public static var waiting: Int { waiters.withLock { $0.list.count } }

    /// Charges `bytes` of your own work to the budget (buffers allocated beside decodes).
    /// - Throws: ``ImageCodecError/decodingFailed(_:)`` with `budgetInUse` or `memoryLimitExceeded`.
    public static func reserve(_ bytes: Int) throws(ImageCodecError) {
        _ = configured
        try CoreBridge.checkDecoding(magpie_memory_charge(UInt64(max(0, bytes))))
    }

    /// Gives back what ``reserve(_:)`` charged.
    public static func release(_ bytes: Int) {
        magpie_memory_discharge(UInt64(max(0, bytes)))
        finished()
    }

    static func ensureConfigured() { _ = configured }

    /// Counts decodes that finished; read it before a decode that may need to wait.
    package static var epoch: UInt64 { waiters.withLock { $0.epoch } }

    /// Called after every decode with its status: one that held memory wakes the tasks waiting
    /// for it. One turned away by the budget does not (it only held its charges for a moment):
    /// otherwise a waiter would wake itself and spin.
    static func finished(_ status: Int32) {
        if status != MAGPIE_EBUDGET.rawValue { finished() }
    }

    /// Wakes the tasks waiting for memory.
    static func finished() {
        let resumed = waiters.withLock { w -> [CheckedContinuation<Void, Never>] in
            w.epoch &+= 1
            defer { w.list.removeAll() }
            return w.list
        }
        for continuation in resumed { continuation.resume() }
    }

    /// Suspends until a decode finished after `epoch` was read (at once if one already has, or
    /// if nothing holds any of the budget now: then the refusal came from another decode's
    /// passing charges, and trying again is right).
    package static func waitForRelease(after epoch: UInt64) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = waiters.withLock { w -> Bool in
                if w.epoch != epoch || magpie_memory_in_use() == 0 { return true }
                w.list.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Runs `decode` until the budget does not turn it away: each time it finds the budget in
    /// use, waits (holding nothing) for another decode to finish and tries again. The one retry
    /// loop of every decode that shares the budget: the pipeline's and the disk hits'.
    /// - Parameter waiting: called before each wait (statistics).
    /// - Throws: what `decode` throws other than the budget's refusal, or `CancellationError`
    ///   when the caller is cancelled while waiting.
    package static func retrying<T>(waiting: () -> Void = {}, _ decode: () async throws -> T) async throws -> T {
        while true {
            let epoch = self.epoch
            do {
                return try await decode()
            } catch  where isBudgetInUse(error) {
                waiting()
                await waitForRelease(after: epoch)
                try Task.checkCancellation()
            }
        }
    }

    /// Whether `error` means "the budget is in use now", worth a wait and another try.
    package static func isBudgetInUse(_ error: any Error) -> Bool {
        (error as? ImageCodecError)?.coreFailure?.code == .budgetInUse
    }
}
