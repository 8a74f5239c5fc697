import Foundation
import Magpie

/// Bytes on disk per byte stored, for each size and for a thumbnail service's entries; and the
/// inline threshold's choice: entries of 8 to 64 KB as rows against files.
enum Footprint {
    /// Stores `count` entries of `sizes(n)` bytes in `store`; returns (bytes on disk, payload bytes).
    static func fill(_ root: String, _ store: Bench.Store, count: Int, inline: Int? = nil, sizes: (Int) -> Int)
        throws -> (onDisk: Int, stored: Int, writes: Double, reads: Double)
    {
        let dir = Bench.fresh(root, "fp-\(store)-\(inline ?? -1)")
        let cache = try DiskCache(config: store.config(dir, inline: inline))
        var stored = 0
        let payloads = (0..<count).map { Bench.payload($0, size: sizes($0)) }
        let keys = (0..<count).map { "https://images.example.com/fp/\($0).jpg@rs:fit:\(24 + $0 % 40)" }
        sync()
        let w = try Bench.seconds {
            for n in 0..<count {
                try cache.store(payloads[n], forKey: keys[n])
                stored += payloads[n].count
            }
        }
        let r = try Bench.seconds {
            for n in 0..<count {
                let value = try cache.value(forKey: keys[n])
                precondition(value != nil)
            }
        }
        // As the folder rests: the index's log checkpointed, free pages given back.
        _ = cache.removeSizeExceededValues()
        return (Bench.blocks(dir), stored, Double(count) / w, Double(count) / r)
    }

    static func run(root: String) throws {
        say("\nbytes on disk per byte stored (every file of the folder, the index included)")
        say("case".padding(toLength: 34, withPad: " ", startingAt: 0) + "       files       hybrid")
        let cases: [(String, Int, (Int) -> Int)] = [
            ("thumbnails 0.7-3 KB x 20,000", 20_000, { 700 + ($0 * 7_919) % 2_300 }),
            ("thumbnails 1-30 KB x 5,000", 5_000, { 1_000 + ($0 * 7_919) % 29_000 }),
            ("thumbnails 4-12 KB x 5,000", 5_000, { 4_000 + ($0 * 7_919) % 8_000 }),
            ("1 KB x 5,000", 5_000, { _ in 1 << 10 }), ("4 KB x 5,000", 5_000, { _ in 4 << 10 }),
            ("16 KB x 2,000", 2_000, { _ in 16 << 10 }), ("64 KB x 500", 500, { _ in 64 << 10 }),
            ("1 MB x 50", 50, { _ in 1 << 20 }),
        ]
        for (name, count, sizes) in cases {
            let f = try fill(root, .files, count: count, sizes: sizes)
            let h = try fill(root, .hybrid, count: count, sizes: sizes)
            say(
                name.padding(toLength: 34, withPad: " ", startingAt: 0)
                    + String(
                        format: "%12.2f %12.2f", Double(f.onDisk) / Double(f.stored),
                        Double(h.onDisk) / Double(h.stored)))
        }
    }

    /// Entries of each size as rows (threshold above them) against files (threshold 0): writes
    /// and reads per second, bytes on disk per byte. Where rows stop winning is the threshold.
    static func runThreshold(root: String, rounds: Int) throws {
        say("\nthe inline threshold: entries as rows against files, medians of \(rounds)")
        say(
            "size".padding(toLength: 12, withPad: " ", startingAt: 0)
                + "  write files/rows (ratio)   read files/rows (ratio)   on disk files/rows")
        for size in [8 << 10, 16 << 10, 24 << 10, 32 << 10, 48 << 10, 64 << 10, 128 << 10] {
            let count = max(300, (32 << 20) / size)
            var files: [(onDisk: Int, stored: Int, writes: Double, reads: Double)] = []
            var rows: [(onDisk: Int, stored: Int, writes: Double, reads: Double)] = []
            for round in 0..<rounds {
                if round % 2 == 0 {
                    files.append(try fill(root, .files, count: count) { _ in size })
                    rows.append(try fill(root, .hybrid, count: count, inline: 1 << 20) { _ in size })
                } else {
                    rows.append(try fill(root, .hybrid, count: count, inline: 1 << 20) { _ in size })
                    files.append(try fill(root, .files, count: count) { _ in size })
                }
            }
            let fw = Bench.median(files.map(\.writes))
            let rw = Bench.median(rows.map(\.writes))
            let fr = Bench.median(files.map(\.reads))
            let rr = Bench.median(rows.map(\.reads))
            say(
                "\(size >> 10) KB".padding(toLength: 12, withPad: " ", startingAt: 0)
                    + String(
                        format: "  %7.0f/%7.0f (%.2f)     %7.0f/%7.0f (%.2f)     %.2f/%.2f", fw, rw, rw / fw, fr, rr,
                        rr / fr, Double(files[0].onDisk) / Double(files[0].stored),
                        Double(rows[0].onDisk) / Double(rows[0].stored)))
        }
    }
}
