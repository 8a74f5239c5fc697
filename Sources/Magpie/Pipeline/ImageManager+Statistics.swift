extension ImageManager {
    /// Counts since creation.
    public struct Statistics: Sendable, Hashable {
        public var retrievals = 0
        public var memoryHits = 0
        public var diskHits = 0
        /// Processed again from the original on disk.
        public var originalHits = 0
        /// Fetches started (each may serve several callers).
        public var fetches = 0
        /// Callers who joined a fetch another caller started.
        public var coalesced = 0
        /// Downloads not made because another process sharing the cache folder made them (its
        /// entry was read after waiting for its lease).
        public var sharedAcrossProcesses = 0
        /// Decode-and-process runs.
        public var processed = 0
        /// Decodes that waited for the process's decode memory budget.
        public var budgetWaits = 0
        /// Originals on disk that did not decode: removed, and the source fetched again.
        public var originalsDiscarded = 0
        public var failures = 0
        /// Downloads the origin's caching headers kept off the disk (`no-store`, `Vary: *`,
        /// `private` without credentials).
        public var keptOffDisk = 0
        /// Conditional requests made for stale (or forced) disk entries, in the foreground or
        /// the background.
        public var revalidations = 0
        /// Revalidations the origin answered `304 Not Modified` (nothing downloaded or decoded).
        public var notModified = 0
        /// Disk entries (processed and original) those `304`s renewed.
        public var entriesRenewed = 0
        /// Stale images served: while a background revalidation ran, or because the origin failed.
        public var staleServed = 0
        /// Revalidations started in the background (`stale-while-revalidate`).
        public var backgroundRevalidations = 0
        /// Disk entries of another variant (`Vary` on a request field whose value differs): misses.
        public var variantMisses = 0
    }
}
