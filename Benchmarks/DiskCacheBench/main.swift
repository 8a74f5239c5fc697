// Disk-cache benchmark: the hybrid store (entries up to the inline threshold as rows of the
// folder's SQLite index, larger ones files) against the files-only store (threshold 0), in the
// same run, rounds interleaved, medians. Release build:
//   swift run -c release magpie-disk-cache-bench [--dir DIR] [--rounds N] [--large] [--only SECTION] [--inline BYTES]
// Sections: throughput (writes and reads per second, 1 KB to 1 MB, 1 and 8 tasks), processes
// (two processes on one folder), footprint (bytes on disk per byte stored), threshold (rows
// against files from 8 to 128 KB), maintenance (open and trim 100,000 entries; --large adds
// 1,000,000; --store files|hybrid runs one of the two).
import Foundation
import Magpie

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--child" {
    try Throughput.child(Array(arguments.dropFirst()))
    exit(0)
}
@MainActor func option(_ name: String) -> String? {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
    return arguments[i + 1]
}
let root = option("--dir") ?? NSTemporaryDirectory() + "magpie-disk-bench"
let rounds = Int(option("--rounds") ?? "") ?? 3
let only = option("--only")
let large = arguments.contains("--large")
if let inline = option("--inline").flatMap({ Int($0) }) { Bench.inlineThreshold = inline }
@MainActor func wanted(_ section: String) -> Bool { only == nil || only == section }

let ticksAtStart = Bench.cpuTicks()
say(
    "disk cache: files-only store against hybrid (inline threshold \(Bench.inlineThreshold) bytes), in \(root)"
)
if only == "profile" { try Throughput.profile(root: root) }
if wanted("throughput") { try Throughput.run(root: root, rounds: rounds) }
if wanted("processes") { try Throughput.runProcesses(root: root, rounds: rounds) }
if wanted("footprint") { try Footprint.run(root: root) }
if wanted("threshold") { try Footprint.runThreshold(root: root, rounds: rounds) }
if wanted("maintenance") {
    let counts = option("--count").flatMap { Int($0) }.map { [$0] } ?? (large ? [100_000, 1_000_000] : [100_000])
    let stores: [Bench.Store] =
        switch option("--store") {
        case "files": [.files]
        case "hybrid": [.hybrid]
        default: Bench.Store.allCases
        }
    try Maintenance.run(root: root, counts: counts, stores: stores)
}
let ticksAtEnd = Bench.cpuTicks()
if ticksAtEnd.total > ticksAtStart.total {
    say(
        String(
            format: "\nCPU time stolen by the hypervisor during this run: %.0f%%",
            100 * Double(ticksAtEnd.steal - ticksAtStart.steal) / Double(ticksAtEnd.total - ticksAtStart.total)))
}
try? FileManager.default.removeItem(atPath: root)
