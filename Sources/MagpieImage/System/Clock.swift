#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where the caches and the downloader read the time: the system clock, or a clock a test moves
/// by hand. In System, below both layers, so Networking does not reach into Cache for it.
public protocol CacheClock: Sendable {
    func now() -> Date
}

/// The wall clock.
public struct SystemCacheClock: CacheClock {
    public init() {}
    public func now() -> Date { Date() }
}
