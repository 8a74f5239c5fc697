import Foundation
import Magpie
import Synchronization

/// A clock that moves only when a test says so.
public final class ManualClock: CacheClock {
    private let current = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
    public init() {}
    public func now() -> Date { current.withLock { $0 } }
    public func advance(by seconds: Double) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

/// A cache value with a chosen cost.
public struct Blob: CacheCostCalculable, Sendable, Equatable {
    public var id: Int
    public var cacheCost: Int
    public init(id: Int, cacheCost: Int) {
        self.id = id
        self.cacheCost = cacheCost
    }
}
