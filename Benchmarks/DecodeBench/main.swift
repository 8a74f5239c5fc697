import Dispatch
import MagpieImage
import Synchronization

// Decodes one file to a thumbnail N times through the Swift API (what an image service does per
// request), for instruction counts under callgrind: `valgrind --tool=callgrind
// magpie-decode-bench FILE [SIZE] [N]`. Prints the size made, so the work cannot be skipped.
//
// The service's cold floor: `magpie-decode-bench --floor THREADS QUALITY [--fast] FILE…` makes
// thumbnails of the files in turn at the sizes 100 to 394 in steps of 6 (fit in a square), each
// encoded as JPEG at QUALITY, on THREADS threads for 10 s (FLOOR_SECONDS), and prints thumbnails per second: what
// the library alone makes of the service benchmark's cold workload, with no HTTP, cache or fetch.
#if canImport(Glibc)
    import Glibc
#endif
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

let arguments = CommandLine.arguments
if arguments.count >= 5, arguments[1] == "--floor", let threads = Int(arguments[2]), let quality = Int(arguments[3]) {
    let fast = arguments[4] == "--fast"
    let files = arguments[(fast ? 5 : 4)...].map { path in
        guard let data = FileManager.default.contents(atPath: path) else { fatalError("cannot read \(path)") }
        return [UInt8](data)
    }
    let sizes = Array(stride(from: 100, through: 394, by: 6))
    let start = DispatchTime.now().uptimeNanoseconds
    // FLOOR_SECONDS shortens the run, for many short interleaved runs on a noisy machine.
    let seconds = ProcessInfo.processInfo.environment["FLOOR_SECONDS"].flatMap { UInt64($0) } ?? 10
    let made = Mutex<Int>(0)
    DispatchQueue.concurrentPerform(iterations: threads) { t in
        var n = 0
        var i = t
        while DispatchTime.now().uptimeNanoseconds - start < seconds * 1_000_000_000 {
            // The service benchmark's order: file i % n at size index (i / n + 7 × (i % n)) % 50,
            // so every stretch of requests spans all the sizes.
            let size = sizes[(i / files.count + 7 * (i % files.count)) % sizes.count]
            var options = DecodingOptions.thumbnail(size)
            if fast { options.quality = .fast }
            let image = try! Image(decoding: files[i % files.count], options: options)
            n += try! image.encoded(as: .jpeg(quality: quality)).isEmpty ? 0 : 1
            i += threads
        }
        made.withLock { $0 += n }
    }
    let total = made.withLock { $0 }
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    print("\(total) thumbnails in \(elapsed) s on \(threads) threads: \(Double(total) / elapsed) per second")
    exit(0)
}
guard arguments.count >= 2 else {
    print("usage: magpie-decode-bench FILE [SIZE=256] [N=10] | --floor THREADS QUALITY [--fast] FILE…")
    exit(64)
}
let size = arguments.count > 2 ? Int(arguments[2]) ?? 256 : 256
let n = arguments.count > 3 ? Int(arguments[3]) ?? 10 : 10
var pixels = 0
for _ in 0..<n {
    let image = try Image(contentsOfFile: arguments[1], options: .thumbnail(size))
    pixels += image.width * image.height
}
print("\(n) thumbnails, \(pixels / n) pixels each")
