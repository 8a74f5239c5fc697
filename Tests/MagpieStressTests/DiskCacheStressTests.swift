import Foundation
import MagpieTestSupport
import Synchronization
import Testing

@testable import Magpie

/// Writers, readers and removers on one disk cache; CI also runs it under ThreadSanitizer.
@Suite struct DiskCacheStressTests {
    @Test func concurrentWritersReadersAndRemoversNeverSeeATornEntry() async throws {
        let dir = try TemporaryDirectory()
        let cache = try DiskCache(config: .init(directory: dir.path("cache"), sizeLimit: 400_000, sweepInterval: nil))
        // Half rows of the index (small), half files: a key moves between the two as it is rewritten.
        let payloads = (0..<20).map { CrashPayload.bytes(for: $0, small: $0 % 2 == 0) }
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    for i in 0..<80 {
                        let n = (i * 3 + worker) % 20
                        // Nothing here may fail: a torn read, a lost write or an error is a bug.
                        do {
                            switch (i + worker) % 4 {
                            case 0: try cache.store(payloads[n], forKey: "key-\(n)")
                            case 1: try cache.store(payloads[(n + 1) % 20], forKey: "key-\(n)")
                            case 2:
                                if let v = try cache.value(forKey: "key-\(n)") {
                                    #expect(v == payloads[n] || v == payloads[(n + 1) % 20])
                                }
                            default: try cache.remove(forKey: "key-\(n)")
                            }
                        } catch {
                            Issue.record("worker \(worker), step \(i): \(error)")
                        }
                    }
                }
            }
        }
        cache.waitForBackgroundWork()
        #expect(cache.totalSize() <= 400_000 + 300_000)
    }
}
