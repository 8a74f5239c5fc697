import Foundation
import Magpie

/// Opening a folder of many entries, and trimming it to half its limit, for both stores.
enum Maintenance {
    static func run(root: String, counts: [Int], stores: [Bench.Store] = Bench.Store.allCases) throws {
        say(
            "\nfilling a folder, opening it, and trimming it to half a limit it exceeds by a third (2 KB entries), seconds"
        )
        say("case".padding(toLength: 34, withPad: " ", startingAt: 0) + "       files       hybrid    ratio")
        for count in counts {
            var opens: [Bench.Store: Double] = [:]
            var trims: [Bench.Store: Double] = [:]
            var fills: [Bench.Store: Double] = [:]
            for store in stores {
                let dir = Bench.fresh(root, "big-\(store)-\(count)")
                let payloads = (0..<16).map { Bench.payload($0, size: 2_048) }
                fills[store] = try Bench.seconds {
                    let cache = try DiskCache(config: store.config(dir))
                    for n in 0..<count { try cache.store(payloads[n % 16], forKey: "https://img.example/\(n).jpg") }
                }
                var opened: DiskCache?
                opens[store] = try Bench.seconds { opened = try DiskCache(config: store.config(dir)) }
                guard opened!.count == count else {
                    say("\(store): \(opened!.count) entries of \(count)")
                    exit(1)
                }
                // Over the limit by a quarter: the trim takes the folder to half the limit.
                let limit = opened!.bytesOnDisk() * 3 / 4
                opened = nil
                let trimming = try DiskCache(config: store.config(dir, sizeLimit: limit))
                trims[store] = Bench.seconds { _ = trimming.removeSizeExceededValues() }
                let left = trimming.bytesOnDisk()
                guard left <= limit / 2 + (1 << 20) else {
                    say("\(store): \(left) bytes left for a limit of \(limit), \(trimming.statistics())")
                    exit(1)
                }
                try? FileManager.default.removeItem(atPath: dir)
            }
            let n = count >= 1_000_000 ? "\(count / 1_000_000),000,000" : "\(count / 1_000),000"
            for (name, table) in [("fill", fills), ("open", opens), ("trim to half", trims)] {
                let files = table[.files] ?? .nan
                let hybrid = table[.hybrid] ?? .nan
                say(
                    "\(name) \(n) entries".padding(toLength: 34, withPad: " ", startingAt: 0)
                        + String(format: "%12.3f %12.3f %8.2f", files, hybrid, hybrid / files))
            }
        }
    }
}
