// Memory-cache benchmark: MemoryCache against Dictionary + Mutex and Foundation's NSCache, with
// 200,000 string keys, on 1 and 2 threads. Prints medians of 5 interleaved rounds in millions of
// operations per second and the ratios the issue sets targets for. Run in release mode:
//   swift run -c release magpie-cache-bench
import Foundation
import Magpie
import Synchronization

struct Payload: CacheCostCalculable, Sendable {
    let value: Int
    var cacheCost: Int { 1 }
}

final class Boxed: NSObject, @unchecked Sendable {
    let value: Int
    init(_ value: Int) { self.value = value }
}

final class DictionaryCache: @unchecked Sendable {
    let state = Mutex<[String: Payload]>([:])
    func set(_ v: Payload, _ k: String) { state.withLock { $0[k] = v } }
    func get(_ k: String) -> Payload? { state.withLock { $0[k] } }
}

/// NSCache is documented thread-safe; this box lets it cross into the worker threads.
final class SharedNSCache: @unchecked Sendable {
    let cache = NSCache<NSString, Boxed>()
}

let keyCount = 200_000
enum Keys {
    static let strings = (0..<keyCount).map { "https://images.example.com/photos/\($0).jpg" }
    static let missing = (0..<keyCount).map { "https://images.example.com/absent/\($0).jpg" }
    nonisolated(unsafe) static let ns = strings.map { $0 as NSString }
    nonisolated(unsafe) static let nsMissing = missing.map { $0 as NSString }
}

/// Runs `body(range)` on `threads` threads over the key indices; returns seconds.
func timed(_ threads: Int, _ body: @escaping @Sendable (Range<Int>) -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    if threads == 1 {
        body(0..<keyCount)
    } else {
        let group = DispatchGroup()
        let chunk = keyCount / threads
        for t in 0..<threads {
            DispatchQueue.global().async(group: group) {
                body(t * chunk..<(t == threads - 1 ? keyCount : (t + 1) * chunk))
            }
        }
        group.wait()
    }
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }

struct Case {
    let name: String
    let run: (Int) -> Double  // threads -> seconds for keyCount operations
}

func cases() -> [String: [Case]] {
    var out: [String: [Case]] = [:]
    func magpie(limit: Int) -> MemoryCache<String, Payload> {
        MemoryCache(config: .init(totalCostLimit: limit, countLimit: .max, maxEntryCostFraction: 1, cleanInterval: nil))
    }
    out["set"] = [
        Case(name: "MemoryCache") { t in
            let c = magpie(limit: .max);
            return timed(t) { for i in $0 { c.store(Payload(value: i), forKey: Keys.strings[i]) } }
        },
        Case(name: "Dictionary+Mutex") { t in
            let c = DictionaryCache(); return timed(t) { for i in $0 { c.set(Payload(value: i), Keys.strings[i]) } }
        },
        Case(name: "NSCache") { t in
            let c = SharedNSCache();
            return timed(t) { for i in $0 { c.cache.setObject(Boxed(i), forKey: Keys.ns[i], cost: 1) } }
        },
    ]
    let m = magpie(limit: .max)
    let d = DictionaryCache()
    let n = SharedNSCache()
    for i in 0..<keyCount {
        m.store(Payload(value: i), forKey: Keys.strings[i])
        d.set(Payload(value: i), Keys.strings[i])
        n.cache.setObject(Boxed(i), forKey: Keys.ns[i], cost: 1)
    }
    out["hit"] = [
        Case(name: "MemoryCache") { t in
            timed(t) { for i in $0 { precondition(m.value(forKey: Keys.strings[i]) != nil) } }
        },
        Case(name: "Dictionary+Mutex") { t in timed(t) { for i in $0 { precondition(d.get(Keys.strings[i]) != nil) } }
        },
        Case(name: "NSCache") { t in
            timed(t) { for i in $0 { precondition(n.cache.object(forKey: Keys.ns[i]) != nil) } }
        },
    ]
    out["miss"] = [
        Case(name: "MemoryCache") { t in
            timed(t) { for i in $0 { precondition(m.value(forKey: Keys.missing[i]) == nil) } }
        },
        Case(name: "Dictionary+Mutex") { t in timed(t) { for i in $0 { precondition(d.get(Keys.missing[i]) == nil) } }
        },
        Case(name: "NSCache") { t in
            timed(t) { for i in $0 { precondition(n.cache.object(forKey: Keys.nsMissing[i]) == nil) } }
        },
    ]
    out["set with eviction"] = [
        Case(name: "MemoryCache") { t in
            let c = magpie(limit: keyCount / 4);
            return timed(t) { for i in $0 { c.store(Payload(value: i), forKey: Keys.strings[i]) } }
        },
        Case(name: "NSCache") { t in
            let c = SharedNSCache()
            c.cache.totalCostLimit = keyCount / 4
            return timed(t) { for i in $0 { c.cache.setObject(Boxed(i), forKey: Keys.ns[i], cost: 1) } }
        },
    ]
    return out
}

let all = cases()
print("memory cache, \(keyCount) string keys, Mops/s (median of 5 interleaved rounds)")
print("workload              threads  MemoryCache  Dictionary+Mutex  NSCache  vs Dict  vs NSCache")
for workload in ["set", "hit", "miss", "set with eviction"] {
    for threads in [1, 2] {
        var samples: [String: [Double]] = [:]
        for _ in 0..<5 {
            for c in all[workload]! { samples[c.name, default: []].append(c.run(threads)) }
        }
        func rate(_ name: String) -> Double? { samples[name].map { Double(keyCount) / median($0) / 1e6 } }
        let mine = rate("MemoryCache")!
        let dict = rate("Dictionary+Mutex")
        let ns = rate("NSCache")!
        let dictText = dict.map { String(format: "%16.2f", $0) } ?? String(repeating: " ", count: 15) + "-"
        let vsDict = dict.map { String(format: "%7.2f", mine / $0) } ?? "      -"
        print(
            workload.padding(toLength: 22, withPad: " ", startingAt: 0)
                + String(format: "%7d  %11.2f", threads, mine) + "  " + dictText
                + String(format: "  %7.2f", ns) + "  " + vsDict + String(format: "  %9.2f", mine / ns))
    }
}
