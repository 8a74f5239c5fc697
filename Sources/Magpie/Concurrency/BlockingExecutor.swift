import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// Runs blocking work (file I/O, decoding in the C core) on dispatch threads, never on Swift's
/// cooperative pool, at most `width` pieces at once; callers beyond that wait suspended, first come
/// first served. The widths of the process's executors are declared here, in one place.
package final class BlockingExecutor: Sendable {
    /// Decoding and processing: one per core (the work is CPU-bound). Shared by every
    /// ``ImageManager`` that does not set its own width and by every ``ImageCache``'s disk-hit
    /// decodes, so the two never add up to more decodes than cores.
    package static let decoding = BlockingExecutor(label: "magpie.decode", width: coreCount)
    /// Disk reads and writes of the caches: more than the cores, as they mostly wait.
    package static let io = BlockingExecutor(label: "magpie.io", width: max(8, 2 * coreCount))

    /// Pieces of work that may run at once.
    package let width: Int
    private let permits: AsyncSemaphore
    private let queue: DispatchQueue

    package init(label: String, width: Int) {
        self.width = max(1, width)
        permits = AsyncSemaphore(limit: self.width)
        queue = DispatchQueue(label: label, qos: .utility, attributes: .concurrent)
        queue.setSpecific(key: Self.labelKey, value: label)
    }

    private static let labelKey = DispatchSpecificKey<String>()

    /// The label of the executor the calling code runs on; `nil` off every executor.
    package static var currentLabel: String? { DispatchQueue.getSpecific(key: labelKey) }

    /// Runs `work` on a dispatch thread once a permit is free.
    /// - Throws: what `work` throws, or `CancellationError` when the caller is cancelled while
    ///   waiting for a permit.
    package func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await permits.withPermit {
            try await withCheckedThrowingContinuation { continuation in
                queue.async { continuation.resume(with: Result { try work() }) }
            }
        }
    }

    static var coreCount: Int {
        #if canImport(Glibc)
            return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        #else
            return 4
        #endif
    }
}
