#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// When a cached value expires (Kingfisher's `StorageExpiration`).
public enum StorageExpiration: Sendable, Hashable {
    /// Never expires.
    case never
    /// Expires this many seconds after it is stored (or its expiration is extended).
    case seconds(Double)
    /// Expires this many days after it is stored (or its expiration is extended).
    case days(Int)
    /// Expires at a fixed date.
    case date(Date)
    /// Already expired: the value is not kept.
    case expired

    /// The expiry date for a value stored at `now`; `nil` for `.never`.
    @inlinable func expiryDate(from now: Date) -> Date? {
        switch self {
        case .never: return nil
        case .seconds(let s): return now.addingTimeInterval(s)
        case .days(let d): return now.addingTimeInterval(Double(d) * 86_400)
        case .date(let date): return date
        case .expired: return .distantPast
        }
    }

    @inlinable var isExpired: Bool {
        if case .expired = self { return true }
        return false
    }
}

/// How reading a cached value changes its expiration.
public enum ExpirationExtending: Sendable, Hashable {
    /// Reading does not change the expiration.
    case none
    /// Reading restarts the expiration the value was stored with.
    case cacheTime
    /// Reading sets a new expiration.
    case expirationTime(StorageExpiration)

    /// The expiry (seconds since the reference date, `.infinity` for never) of an entry read at
    /// `now` that expires at `current`: the one rule both caches follow. `restart` gives the
    /// entry's own lifetime measured again from a date (for ``cacheTime``); an entry that never
    /// expires keeps doing so.
    @inlinable func extendedExpiry(from current: Double, at now: Date, restart: (Date) -> Date?) -> Double {
        switch self {
        case .none: return current
        case .cacheTime:
            return current == .infinity ? current : restart(now)?.timeIntervalSinceReferenceDate ?? .infinity
        case .expirationTime(let e): return e.expiryDate(from: now)?.timeIntervalSinceReferenceDate ?? .infinity
        }
    }
}

/// Values a cache can charge for: `cacheCost` is roughly the bytes the value keeps alive.
public protocol CacheCostCalculable {
    var cacheCost: Int { get }
}

extension Image: CacheCostCalculable {
    /// Pixel bytes of every frame.
    public var cacheCost: Int { cost }
}

extension Array: CacheCostCalculable where Element == UInt8 {
    public var cacheCost: Int { count }
}
