import Foundation
import Magpie

#if canImport(Glibc)
    import Glibc
#endif

/// Timing, folders and the two stores the benchmark sets side by side.
enum Bench {
    /// The hybrid store's threshold (`--inline BYTES`; the library's default otherwise).
    nonisolated(unsafe) static var inlineThreshold = DiskCache.Config().inlineThreshold

    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    static func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }

    /// A new, empty folder under the benchmark's root.
    static func fresh(_ root: String, _ name: String) -> String {
        let path = root + "/" + name
        try? FileManager.default.removeItem(atPath: path)
        sync()
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The two stores: every entry a file (the store before the index kept small entries), and
    /// the hybrid one with the given inline threshold.
    enum Store: CaseIterable, CustomStringConvertible {
        case files
        case hybrid

        var description: String { self == .files ? "files" : "hybrid" }

        func config(_ directory: String, sizeLimit: Int = 0, countLimit: Int = 0, inline: Int? = nil)
            -> DiskCache.Config
        {
            var config = DiskCache.Config(
                directory: directory, sizeLimit: sizeLimit, sweepInterval: nil, countLimit: countLimit,
                freeSpaceLimit: 0)
            config.inlineThreshold = self == .files ? 0 : (inline ?? Bench.inlineThreshold)
            return config
        }
    }

    /// Bytes the folder takes on disk (`st_blocks`), every file in it.
    static func blocks(_ folder: String) -> Int {
        var total = 0
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return 0 }
        for case let name as String in walker {
            var st = stat()
            if lstat(folder + "/" + name, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG {
                total += Int(st.st_blocks) * 512
            }
        }
        return total
    }

    /// An incompressible payload of `size` bytes, different for each `n`.
    static func payload(_ n: Int, size: Int) -> [UInt8] {
        var state = UInt64(truncatingIfNeeded: n) &* 0x9E37_79B9_7F4A_7C15 &+ 1
        var out = [UInt8](repeating: 0, count: size)
        out.withUnsafeMutableBytes { raw in
            var i = 0
            while i + 8 <= size {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                raw.storeBytes(of: state, toByteOffset: i, as: UInt64.self)
                i += 8
            }
        }
        return out
    }

    /// Runs `body(task)` on `tasks` threads at once and waits for them.
    static func parallel(_ tasks: Int, _ body: @Sendable (Int) -> Void) {
        DispatchQueue.concurrentPerform(iterations: tasks, execute: body)
    }

    /// (steal, total) CPU ticks from /proc/stat: time the hypervisor gave to other machines
    /// makes every figure noisier, so the run reports it.
    static func cpuTicks() -> (steal: Int, total: Int) {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") })
        else { return (0, 0) }
        let fields = line.split(separator: " ").dropFirst().prefix(8).compactMap { Int($0) }
        guard fields.count == 8 else { return (0, 0) }
        return (fields[7], fields.reduce(0, +))
    }

    static func row(_ label: String, _ files: Double, _ hybrid: Double, unit: String = "") -> String {
        label.padding(toLength: 34, withPad: " ", startingAt: 0)
            + String(format: "%12.0f %12.0f %8.2f", files, hybrid, hybrid / files) + unit
    }
}

/// Prints a line and flushes it (into a file, a crash would otherwise lose what came before).
func say(_ line: String) {
    print(line)
    fflush(nil)
}
