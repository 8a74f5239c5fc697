// Test helper for the disk-cache tests, run as a separate process:
//   magpie-cache-writer loop DIR          stores "key-<n>" (payload from n) forever, printing n
//                                         after each store returns, until killed
//   magpie-cache-writer loop-small DIR    the same with payloads small enough to be rows
//   magpie-cache-writer store-once DIR N  stores one N-byte entry, prints "ok" or the error,
//                                         then stores a small entry to show the cache still works
//   magpie-cache-writer lease DIR KEY     takes the download lease on KEY, prints "held", and
//                                         waits until killed
//   magpie-cache-writer budget-wait DIR   a decode through the pipeline that finds the process's
//                                         decode memory budget taken: prints "waiting" once it
//                                         waits, frees the budget, prints the image it got (its own
//                                         process: the budget is process-wide)
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
if arguments[1] == "lease", arguments.count >= 4 {
    let cache = try DiskCache(config: .init(directory: arguments[2], sweepInterval: nil))
    guard case .acquired(let lease) = cache.tryDownloadLease(forKey: arguments[3]) else {
        emit("not acquired")
        exit(1)
    }
    emit("held")
    while true { pause() }
    withExtendedLifetime(lease) {}
}
if arguments[1] == "budget-wait" {
    do {
        DecodeMemoryBudget.limit = 64 << 20
        let reserved = 60 << 20
        try DecodeMemoryBudget.reserve(reserved)
        var rgba = [UInt8](repeating: 0, count: 2000 * 1000 * 4)
        for i in stride(from: 0, to: rgba.count, by: 4) {
            rgba[i] = UInt8(truncatingIfNeeded: i / 4); rgba[i + 3] = 255
        }
        let png = try Image(width: 2000, height: 1000, rgba: rgba).encoded(as: .png())
        // 8 MB of output does not fit beside the 60 MB held: the plain decode says so at once.
        do {
            _ = try Image(decoding: png)
            emit("sync decoded")
        } catch {
            emit("sync: \(error.coreFailure?.code.map { "\($0)" } ?? "\(error)")")
        }
        let cache = try ImageCache(disk: .init(directory: arguments[2], sweepInterval: nil))
        let manager = ImageManager(cache: cache)
        let task = Task.detached {
            try await manager.retrieveImage(with: .provider(RawImageDataProvider(png, cacheKey: "big")))
        }
        let watcher = Task.detached {
            // The retrieval ends (with an error) instead of waiting: report it rather than hang.
            let outcome = await task.result
            if DecodeMemoryBudget.waiting == 0, case .failure(let error) = outcome {
                emit("error: did not wait: \(error)")
                exit(3)
            }
        }
        while DecodeMemoryBudget.waiting == 0 { await Task.yield() }
        _ = watcher
        emit("waiting")
        DecodeMemoryBudget.release(reserved)
        let result = try await task.value
        emit(
            "done \(result.image.width)x\(result.image.height), waits \(manager.statistics.budgetWaits), in use \(DecodeMemoryBudget.inUse)"
        )
        await cache.shutdown()
        exit(0)
    } catch {
        emit("error: \(error)")
        exit(3)
    }
}
do {
    let cache = try DiskCache(config: .init(directory: arguments[2], sizeLimit: 0, sweepInterval: nil))
    switch arguments[1] {
    case "loop", "loop-small":
        var n = 0
        while true {
            try cache.store(CrashPayload.bytes(for: n, small: arguments[1] == "loop-small"), forKey: "key-\(n)")
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
