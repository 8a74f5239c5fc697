// Test helper for the disk-cache tests, run as a separate process:
//   magpie-cache-writer loop DIR          stores "key-<n>" (payload from n) forever, printing n
//                                         after each store returns, until killed
//   magpie-cache-writer store-once DIR N  stores one N-byte entry, prints "ok" or the error,
//                                         then stores a small entry to show the cache still works
import Magpie
import MagpieTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// One line to standard output, unbuffered, so the test sees it as soon as the store returned.
func emit(_ text: String) {
    var line = text + "\n"
    line.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
}

signal(SIGXFSZ, SIG_IGN)  // over RLIMIT_FSIZE, write() then fails with EFBIG instead of killing us
let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    emit("usage: magpie-cache-writer loop|store-once DIR [BYTES]")
    exit(2)
}
do {
    let cache = try DiskCache(config: .init(directory: arguments[2], sizeLimit: 0, sweepInterval: nil))
    switch arguments[1] {
    case "loop":
        var n = 0
        while true {
            try cache.store(CrashPayload.bytes(for: n), forKey: "key-\(n)")
            emit(String(n))
            n += 1
        }
    default:
        let size = Int(arguments.count > 3 ? arguments[3] : "1000") ?? 1000
        do {
            try cache.store([UInt8](repeating: 7, count: size), forKey: "big")
            emit("ok")
        } catch {
            emit("error: \(error)")
        }
        try cache.store([1, 2, 3], forKey: "small")
        emit(try cache.value(forKey: "small") == [1, 2, 3] ? "still usable" : "broken")
    }
} catch {
    emit("error: \(error)")
    exit(3)
}
