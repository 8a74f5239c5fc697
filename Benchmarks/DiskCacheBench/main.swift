// Disk-cache benchmark: DiskCache against a raw baseline in the same run (write a temporary file
// and rename it; read a whole file), for 10,000 entries of 2 KB and 1,000 of 200 KB, plus
// isCached, opening a directory of 100,000 entries and trimming it to half. Medians of 3 rounds
// (reads: of 5 passes a round).
//   swift run -c release magpie-disk-cache-bench [DIR]
import Foundation
import Magpie

#if canImport(Glibc)
    import Glibc
#endif

let root = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : NSTemporaryDirectory() + "magpie-disk-bench"

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }

func fresh(_ name: String) -> String {
    let path = root + "/" + name
    try? FileManager.default.removeItem(atPath: path)
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

enum Raw {
    static func write(_ dir: String, _ name: String, _ data: [UInt8]) {
        let tmp = dir + "/.tmp-" + name
        let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        _ = data.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
        rename(tmp, dir + "/" + name)
    }

    static func read(_ dir: String, _ name: String) -> [UInt8]? {
        let fd = open(dir + "/" + name, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        fstat(fd, &st)
        var out = [UInt8](repeating: 0, count: Int(st.st_size))
        _ = out.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        return out
    }
}

// Profiling aid: MAGPIE_DISK_PROFILE=hit|write runs only that loop, MAGPIE_DISK_PASSES (20) times over 10,000 entries of 2 KB.
if let mode = ProcessInfo.processInfo.environment["MAGPIE_DISK_PROFILE"] {
    let cache = try DiskCache(config: .init(directory: fresh("profile"), sizeLimit: 0, sweepInterval: nil))
    let payload = [UInt8](repeating: 0xA5, count: mode.hasSuffix("big") ? 200_000 : 2_048)
    let keys = (0..<(mode.hasSuffix("big") ? 1000 : 10_000)).map { "https://images.example.com/p/\($0).jpg" }
    for k in keys { try cache.store(payload, forKey: k) }
    let names = keys.map { cache.fileName(forKey: $0) }
    let passes = Int(ProcessInfo.processInfo.environment["MAGPIE_DISK_PASSES"] ?? "") ?? 20
    if mode == "compare" {
        // The same passes, interleaved: DiskCache hits, raw reads of the cache's files, raw reads
        // of files the raw writer made.
        let rawDir = fresh("profile-raw")
        for n in names { Raw.write(rawDir, n, payload) }
        var t = [[Double]](repeating: [], count: 3)
        for _ in 0..<passes {
            t[0].append(try seconds { for k in keys { _ = try cache.value(forKey: k) } })
            t[1].append(seconds { for n in names { _ = Raw.read(cache.directory, n) } })
            t[2].append(seconds { for n in names { _ = Raw.read(rawDir, n) } })
        }
        let us = t.map { median($0) / Double(keys.count) * 1e6 }
        print(String(format: "hit %.2f µs, raw on cache files %.2f µs, raw %.2f µs", us[0], us[1], us[2]))
        exit(0)
    }
    let t = try seconds {
        for _ in 0..<passes {
            if mode.hasPrefix("hitraw") {
                for n in names { _ = Raw.read(cache.directory, n) }
            } else if mode.hasPrefix("hit") {
                for k in keys { _ = try cache.value(forKey: k) }
            } else {
                for k in keys { try cache.store(payload, forKey: k) }
            }
        }
    }
    print(mode, String(format: "%.2f µs per call", t / Double(passes * keys.count) * 1e6))
    exit(0)
}

/// (steal, total) CPU ticks from /proc/stat: time the hypervisor gave to other machines makes
/// every figure noisier, so the run reports it.
func cpuTicks() -> (steal: Int, total: Int) {
    guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
        let line = text.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") })
    else { return (0, 0) }
    let fields = line.split(separator: " ").dropFirst().prefix(8).compactMap { Int($0) }
    guard fields.count == 8 else { return (0, 0) }
    return (fields[7], fields.reduce(0, +))
}
let ticksAtStart = cpuTicks()

print("disk cache vs raw files (temp + rename; whole-file read), operations per second, medians of 3")
print("case                         DiskCache        raw     ratio")
for (count, size) in [(10_000, 2_048), (1_000, 200_000)] {
    let payload = [UInt8](repeating: 0xA5, count: size)
    let keys = (0..<count).map { "https://images.example.com/p/\($0).jpg" }
    let names = keys.map { CacheKeys.md5Hex($0) }
    var results: [String: ([Double], [Double])] = [:]
    for round in 0..<3 {
        // New directories each round (deleting right before creating slows ext4's inode
        // allocation for whoever goes next), and the two sides take turns going first.
        let cacheDir = fresh("cache-\(count)-\(round)")
        let rawDir = fresh("raw-\(count)-\(round)")
        let cache = try DiskCache(config: .init(directory: cacheDir, sizeLimit: 0, sweepInterval: nil))
        var w1 = 0.0
        var w2 = 0.0
        if round % 2 == 0 {
            w1 = try seconds { for k in keys { try cache.store(payload, forKey: k) } }
            w2 = seconds { for n in names { Raw.write(rawDir, n, payload) } }
        } else {
            w2 = seconds { for n in names { Raw.write(rawDir, n, payload) } }
            w1 = try seconds { for k in keys { try cache.store(payload, forKey: k) } }
        }
        func cacheHits() throws -> Double {
            try seconds {
                for k in keys {
                    let v = try cache.value(forKey: k)
                    precondition(v?.count == size)
                }
            }
        }
        func rawHits() -> Double { seconds { for n in names { precondition(Raw.read(rawDir, n)?.count == size) } } }
        func cacheMisses() throws -> Double {
            try seconds {
                for k in keys {
                    let v = try cache.value(forKey: k + "?miss")
                    precondition(v == nil)
                }
            }
        }
        func rawMisses() -> Double { seconds { for n in names { precondition(Raw.read(rawDir, n + "x") == nil) } } }
        // Reads are short (tens of milliseconds a pass): five passes each, the two sides taking
        // turns going first, and the median pass counts. The first pass after the writes is the
        // one where DiskCache also checks each payload's CRC (once per file and process).
        var passes: [[Double]] = [[], [], [], []]
        for pass in 0..<5 {
            if (round + pass) % 2 == 0 {
                passes[0].append(try cacheHits())
                passes[1].append(rawHits())
                passes[2].append(try cacheMisses())
                passes[3].append(rawMisses())
            } else {
                passes[1].append(rawHits())
                passes[0].append(try cacheHits())
                passes[3].append(rawMisses())
                passes[2].append(try cacheMisses())
            }
        }
        let (h1, h2, m1, m2) = (median(passes[0]), median(passes[1]), median(passes[2]), median(passes[3]))
        for (label, a, b) in [("write", w1, w2), ("hit", h1, h2), ("miss", m1, m2)] {
            results[label, default: ([], [])].0.append(Double(count) / a)
            results[label, default: ([], [])].1.append(Double(count) / b)
        }
    }
    for label in ["write", "hit", "miss"] {
        let (a, b) = results[label]!
        let name = "\(label) \(count) x \(size / 1000) KB"
        print(
            name.padding(toLength: 26, withPad: " ", startingAt: 0)
                + String(format: "%11.0f %10.0f %9.2f", median(a), median(b), median(a) / median(b)))
    }
}

// Writes with a size limit also count the folder's size in the shared record (`.magpie-size`,
// under flock) so processes sharing a folder hold one limit: the cost of that, side by side
// with no limit (which skips the record), 10,000 x 2 KB, three interleaved rounds.
do {
    let payload = [UInt8](repeating: 0x5A, count: 2_048)
    let keys = (0..<10_000).map { "https://images.example.com/limit/\($0).jpg" }
    var limited: [Double] = []
    var unlimited: [Double] = []
    for round in 0..<3 {
        let a = try DiskCache(
            config: .init(directory: fresh("limited-\(round)"), sizeLimit: 1 << 30, sweepInterval: nil))
        let b = try DiskCache(config: .init(directory: fresh("unlimited-\(round)"), sizeLimit: 0, sweepInterval: nil))
        let write = { (cache: DiskCache) throws -> Double in
            try seconds { for k in keys { try cache.store(payload, forKey: k) } }
        }
        if round % 2 == 0 {
            limited.append(try write(a))
            unlimited.append(try write(b))
        } else {
            unlimited.append(try write(b))
            limited.append(try write(a))
        }
    }
    print(
        "write 10000 x 2 KB, 1 GiB limit (shared record) vs none: "
            + String(
                format: "%.0f vs %.0f per second, ratio %.2f", 10_000 / median(limited), 10_000 / median(unlimited),
                median(unlimited) / median(limited)))
}

// isCached, opening 100,000 entries, trimming them to half: three directories, medians. A trim
// is 50,000 unlinks, so it waits on the file system's journal as much as on this code.
var opens: [Double] = []
var trims: [Double] = []
var left = 0
for round in 0..<3 {
    let bigDir = fresh("big-\(round)")
    do {
        let cache = try DiskCache(config: .init(directory: bigDir, sizeLimit: 0, sweepInterval: nil))
        let payload = [UInt8](repeating: 1, count: 100)
        for i in 0..<100_000 { try cache.store(payload, forKey: "key-\(i)") }
        if round == 0 {
            // isCached asks the file system (one fstatat); isCachedFromIndex only the index.
            // Interleaved rounds over all 100,000 keys, medians.
            let keys = (0..<100_000).map { "key-\($0)" }
            var checked: [Double] = []
            var indexed: [Double] = []
            for pass in 0..<6 {
                let order = pass % 2 == 0 ? [true, false] : [false, true]
                for checking in order {
                    var hits = 0
                    let t = seconds {
                        for k in keys where checking ? cache.isCached(forKey: k) : cache.isCachedFromIndex(forKey: k) {
                            hits += 1
                        }
                    }
                    precondition(hits == keys.count)
                    if checking {
                        checked.append(t / Double(keys.count) * 1e6)
                    } else {
                        indexed.append(t / Double(keys.count) * 1e6)
                    }
                }
            }
            print(
                String(
                    format: "isCached (file checked): %.2f µs per call (target <= 2 µs); isCachedFromIndex: %.2f µs; "
                        + "ratio %.1fx", median(checked), median(indexed), median(checked) / median(indexed)))
        }
    }
    var reopened: DiskCache?
    opens.append(
        try seconds {
            reopened = try DiskCache(config: .init(directory: bigDir, sizeLimit: 100_000 * 200, sweepInterval: nil))
        })
    precondition(reopened!.count == 100_000)
    let cache = try DiskCache(
        config: .init(directory: bigDir, sizeLimit: reopened!.totalSize() - 1, sweepInterval: nil))
    trims.append(seconds { _ = cache.removeSizeExceededValues() })
    left = cache.count
}
print(String(format: "open a directory of 100,000 entries: %.2f s (target <= 1 s)", median(opens)))
print(
    String(
        format: "trim 100,000 entries to half the limit: %.2f s (target <= 1 s; rounds %@), %d left", median(trims),
        trims.map { String(format: "%.2f", $0) }.joined(separator: " "), left))
let ticksAtEnd = cpuTicks()
if ticksAtEnd.total > ticksAtStart.total {
    print(
        String(
            format: "CPU time stolen by the hypervisor during this run: %.0f%%",
            100 * Double(ticksAtEnd.steal - ticksAtStart.steal) / Double(ticksAtEnd.total - ticksAtStart.total)))
}
try? FileManager.default.removeItem(atPath: root)
