/// Trims a memory cache when the process's cgroup is under memory pressure — Linux has no
/// memory-warning notification, so this polls cgroup v2 pressure stall information.
///
/// Off unless you create one. Every `interval` it reads `memory.pressure` of the process's cgroup
/// (`some avg10=…`: the share of the last 10 s in which some task stalled on memory) and, when it
/// is at or above `threshold` percent, trims the cache to `trimFraction` of its current cost.
/// It holds the cache weakly and stops when either goes away.
public final class MemoryPressureWatcher: Sendable {
    public let pressureFile: String?
    public let threshold: Double
    public let trimFraction: Double
    private let trim: @Sendable (Double) -> Bool
    private let task = Locked<PeriodicSweep?>(nil)

    /// Watches for `cache`. `pressureFile` defaults to the process's cgroup `memory.pressure`.
    public init<Key, Value>(
        cache: MemoryCache<Key, Value>, threshold: Double = 10, trimFraction: Double = 0.5,
        interval: Duration? = .seconds(5), pressureFile: String? = MemoryPressureWatcher.defaultPressureFile()
    ) {
        self.pressureFile = pressureFile
        self.threshold = threshold
        self.trimFraction = trimFraction
        self.trim = { [weak cache] fraction in
            guard let cache else { return false }
            cache.trim(toCost: Int(Double(cache.totalCost) * fraction))
            return true
        }
        if let interval, pressureFile != nil {
            let sweep = PeriodicSweep(every: interval, on: self) { $0.checkOnce() }
            task.withLock { $0 = sweep }
        }
    }

    /// Reads the pressure once and trims when it is high; returns the `some avg10` value read
    /// (`nil` when the file is missing or unreadable).
    @discardableResult
    public func checkOnce() -> Double? {
        guard let pressureFile, let text = SystemMemory.readSmallFile(pressureFile),
            let avg10 = Self.someAvg10(text)
        else { return nil }
        if avg10 >= threshold { _ = trim(trimFraction) }
        return avg10
    }

    /// `avg10` of the `some` line of a PSI file.
    static func someAvg10(_ text: String) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix("some ") {
            for field in line.split(separator: " ") where field.hasPrefix("avg10=") {
                return Double(field.dropFirst(6))
            }
        }
        return nil
    }

    /// `/sys/fs/cgroup/<cgroup of this process>/memory.pressure`, when on cgroup v2.
    public static func defaultPressureFile() -> String? {
        guard let path = SystemMemory.cgroupPath() else { return nil }
        return "/sys/fs/cgroup" + (path == "/" ? "" : path) + "/memory.pressure"
    }
}
