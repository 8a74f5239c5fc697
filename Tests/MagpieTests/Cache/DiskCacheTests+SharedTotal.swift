import Foundation
import MagpieTestSupport
import Testing

@testable import Magpie

/// The folder's shared total (`.magpie-size`) against its files when one process rescans while
/// another removes or writes. Two caches on one folder stand for two processes: each maps the
/// record through its own descriptor, and `flock` locks descriptions, not processes.
extension DiskCacheTests {
    private func bytesOnDisk(_ folder: String) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.reduce(0) {
            $0 + ((try FileManager.default.attributesOfItem(atPath: folder + "/" + $1)[.size] as? Int) ?? 0)
        }
    }

    /// Runs `change` on another thread from inside `rescanning`'s rescan (after it read the
    /// shared total, before it lists the folder); returns whether the change finished while the
    /// rescan was still waiting for it.
    private func change(
        during rescanning: DiskCache, _ change: @escaping @Sendable () -> Void
    ) throws -> Bool {
        let finished = DispatchSemaphore(value: 0)
        let finishedInside = Locked(false)
        rescanning.rescanHook.withLock {
            $0 = {
                Thread.detachNewThread {
                    change()
                    finished.signal()
                }
                // A change that is not held back finishes in microseconds; one that waits for the
                // rescan's lock cannot finish here at all, however long this waits.
                finishedInside.withLock { $0 = finished.wait(timeout: .now() + .milliseconds(300)) == .success }
            }
        }
        rescanning.trimAcrossProcesses(downTo: 1 << 30)
        rescanning.rescanHook.withLock { $0 = nil }
        if finishedInside.withLock({ $0 }) { return true }
        #expect(finished.wait(timeout: .now() + .seconds(20)) == .success, "the change never finished")
        return false
    }

    @Test func aRemovalDuringAnotherProcesssRescanIsCountedOnce() throws {
        let dir = try TemporaryDirectory()
        let folder = dir.path("cache")
        let rescanning = try makeCache(dir, limit: 1 << 20)
        let removing = try makeCache(dir, limit: 1 << 20)
        for key in ["a", "b", "c"] { try removing.store([UInt8](repeating: 7, count: 5_000), forKey: key) }
        // So the rescanning side's index is not the folder, and it rescans.
        try rescanning.store([UInt8](repeating: 8, count: 3_000), forKey: "d")
        let inside = try change(during: rescanning) { try? removing.remove(forKey: "a") }
        #expect(!inside, "the removal did not wait for the rescan")
        #expect(!FileManager.default.fileExists(atPath: removing.path(forKey: "a")))
        let onDisk = try bytesOnDisk(folder)
        #expect(rescanning.shared?.total() == onDisk)
        #expect(removing.shared?.total() == onDisk)
    }

    @Test func aWriteDuringAnotherProcesssRescanIsCountedOnce() throws {
        let dir = try TemporaryDirectory()
        let folder = dir.path("cache")
        let rescanning = try makeCache(dir, limit: 1 << 20)
        let writing = try makeCache(dir, limit: 1 << 20)
        try writing.store([UInt8](repeating: 7, count: 5_000), forKey: "a")
        try rescanning.store([UInt8](repeating: 8, count: 3_000), forKey: "d")
        let inside = try change(during: rescanning) {
            try? writing.store([UInt8](repeating: 9, count: 4_000), forKey: "e")
        }
        #expect(!inside, "the write did not wait for the rescan")
        #expect(try writing.value(forKey: "e")?.count == 4_000)
        #expect(rescanning.shared?.total() == (try bytesOnDisk(folder)))
        // And a trim sees what both wrote: removing everything from one side empties the count.
        rescanning.trimAcrossProcesses(downTo: 0)
        #expect(rescanning.shared?.total() == (try bytesOnDisk(folder)))
    }
}
