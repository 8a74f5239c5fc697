import Foundation
import Magpie

/// Writes and reads per second of entries of one size, from 1 and 8 tasks (threads) and from two
/// processes, for both stores, rounds interleaved.
enum Throughput {
    static let sizes: [(size: Int, count: Int)] = [
        (1 << 10, 20_000), (4 << 10, 20_000), (16 << 10, 10_000), (64 << 10, 3_000), (1 << 20, 300),
    ]

    static func label(_ size: Int) -> String { size >= 1 << 20 ? "\(size >> 20) MB" : "\(size >> 10) KB" }

    static func keys(_ size: Int, _ count: Int) -> [String] {
        (0..<count).map { "https://images.example.com/\(size)/\($0).jpg@rs:fit:256:256" }
    }

    /// Writes `keys` (payloads from a pool of 16) from `tasks` threads; returns the seconds.
    static func write(_ cache: DiskCache, _ keys: [String], size: Int, tasks: Int) -> Double {
        let payloads = (0..<16).map { Bench.payload($0, size: size) }
        // What earlier phases left for the kernel to write back is written now, not during this one.
        sync()
        return Bench.seconds {
            Bench.parallel(tasks) { task in
                for i in stride(from: task, to: keys.count, by: tasks) {
                    try! cache.store(payloads[i % 16], forKey: keys[i])
                }
            }
        }
    }

    /// Reads every key from `tasks` threads (each must hit); returns the seconds.
    static func read(_ cache: DiskCache, _ keys: [String], size: Int, tasks: Int) -> Double {
        Bench.seconds {
            Bench.parallel(tasks) { task in
                for i in stride(from: task, to: keys.count, by: tasks) {
                    precondition(try! cache.value(forKey: keys[i])?.count == size)
                }
            }
        }
    }

    static func run(root: String, rounds: Int) throws {
        say(
            "\nwrites and reads per second, files-only store against hybrid (rows up to the threshold), medians of \(rounds)"
        )
        say("case".padding(toLength: 34, withPad: " ", startingAt: 0) + "       files       hybrid    ratio")
        for (size, count) in sizes {
            for tasks in [1, 8] {
                var writes: [Bench.Store: [Double]] = [:]
                var reads: [Bench.Store: [Double]] = [:]
                let keys = keys(size, count)
                for round in 0..<rounds {
                    for store in round % 2 == 0 ? [Bench.Store.files, .hybrid] : [.hybrid, .files] {
                        let dir = Bench.fresh(root, "tp-\(store)-\(size)-\(tasks)-\(round)")
                        let cache = try DiskCache(config: store.config(dir))
                        writes[store, default: []].append(Double(count) / write(cache, keys, size: size, tasks: tasks))
                        let passes = (0..<3).map { _ in Double(count) / read(cache, keys, size: size, tasks: tasks) }
                        reads[store, default: []].append(Bench.median(passes))
                    }
                }
                let suffix = "\(label(size)), \(tasks) task\(tasks > 1 ? "s" : "")"
                for (name, table) in [("write", writes), ("read", reads)] {
                    say(Bench.row("\(name) \(suffix)", Bench.median(table[.files]!), Bench.median(table[.hybrid]!)))
                }
            }
        }
    }

    /// Two processes writing (then reading) one folder at once: the wall time of both, as
    /// operations per second together.
    static func runProcesses(root: String, rounds: Int) throws {
        say("\ntwo processes on one folder, operations per second together, medians of \(rounds)")
        for (size, count) in [(4 << 10, 20_000), (64 << 10, 3_000)] {
            var writes: [Bench.Store: [Double]] = [:]
            var reads: [Bench.Store: [Double]] = [:]
            for round in 0..<rounds {
                for store in round % 2 == 0 ? [Bench.Store.files, .hybrid] : [.hybrid, .files] {
                    let dir = Bench.fresh(root, "proc-\(store)-\(size)-\(round)")
                    _ = try DiskCache(config: store.config(dir))  // made once, as a deployment's first process does
                    for (phase, table) in [("write", 0), ("read", 1)] {
                        let t = try Bench.seconds {
                            let children = try (0..<2).map { part -> Process in
                                let p = Process()
                                p.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
                                p.arguments = ["--child", phase, dir, "\(size)", "\(count)", "\(part)", "\(store)"]
                                try p.run()
                                return p
                            }
                            for child in children {
                                child.waitUntilExit()
                                precondition(child.terminationStatus == 0, "a child failed")
                            }
                        }
                        if table == 0 {
                            writes[store, default: []].append(Double(count) / t)
                        } else {
                            reads[store, default: []].append(Double(count) / t)
                        }
                    }
                }
            }
            for (name, table) in [("write", writes), ("read", reads)] {
                say(
                    Bench.row(
                        "\(name) \(label(size)), 2 processes", Bench.median(table[.files]!),
                        Bench.median(table[.hybrid]!)))
            }
        }
    }

    /// A child of ``runProcesses``: its half of the keys (`part` 0 or 1 of 2).
    static func child(_ arguments: [String]) throws {
        let (phase, dir, size, count, part) = (
            arguments[0], arguments[1], Int(arguments[2])!, Int(arguments[3])!, Int(arguments[4])!
        )
        let store: Bench.Store = arguments[5] == "files" ? .files : .hybrid
        let cache = try DiskCache(config: store.config(dir))
        let all = keys(size, count)
        let mine = stride(from: part, to: all.count, by: 2).map { all[$0] }
        _ = phase == "write" ? write(cache, mine, size: size, tasks: 1) : read(cache, mine, size: size, tasks: 1)
    }
}

extension Throughput {
    /// A profiling aid (`--only profile`): `MAGPIE_DISK_SIZE` bytes (4096) into the store named by
    /// `MAGPIE_DISK_STORE` (hybrid), 20,000 entries, then 10 passes of reads from one task
    /// (`MAGPIE_DISK_PASSES`), hits, or misses with `MAGPIE_DISK_MISS=1`.
    static func profile(root: String) throws {
        let environment = ProcessInfo.processInfo.environment
        let size = Int(environment["MAGPIE_DISK_SIZE"] ?? "") ?? 4096
        let store: Bench.Store = environment["MAGPIE_DISK_STORE"] == "files" ? .files : .hybrid
        let passes = Int(environment["MAGPIE_DISK_PASSES"] ?? "") ?? 10
        let misses = environment["MAGPIE_DISK_MISS"] == "1"
        let cache = try DiskCache(config: store.config(Bench.fresh(root, "profile")))
        let keys = keys(size, 20_000)
        let absent = keys.map { $0 + "?absent" }
        let w = write(cache, keys, size: size, tasks: 1)
        let r = (0..<passes).map { _ in
            misses
                ? Bench.seconds { for k in absent { precondition(try! cache.value(forKey: k) == nil) } }
                : read(cache, keys, size: size, tasks: 1)
        }
        say(
            String(
                format: "%@ %d B: write %.2f µs, %@ %.2f µs", "\(store)", size, w / 20_000 * 1e6,
                misses ? "miss" : "read", Bench.median(r) / 20_000 * 1e6))
    }
}
