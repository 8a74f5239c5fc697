import Foundation
import MagpieTestSupport
import Testing

@testable import Magpie

/// Other processes on one cache folder: killed writers and concurrent ones.
extension DiskCacheTests {
    @Test func killingAWriterLosesAtMostTheEntryInFlight() throws {
        let dir = try TemporaryDirectory()
        let child = try ChildProcess(Helper.writer, ["loop", dir.path("cache")])
        var acknowledged = -1
        while acknowledged < 40, let line = child.readLine(), let n = Int(line) { acknowledged = n }
        child.killHard()
        #expect(acknowledged >= 40)
        // The writer used the wall clock; so does the reader here.
        let cache = try DiskCache(config: .init(directory: dir.path("cache"), sizeLimit: 0, sweepInterval: nil))
        for n in 0...acknowledged {
            #expect(try cache.value(forKey: "key-\(n)") == CrashPayload.bytes(for: n), "key-\(n)")
        }
        // Entries written after the last line we read are whole or absent, never torn.
        #expect(cache.count >= acknowledged + 1)
        for n in (acknowledged + 1)..<(cache.count + 5) {
            if let value = try cache.value(forKey: "key-\(n)") { #expect(value == CrashPayload.bytes(for: n)) }
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path("cache"))
        #expect(!names.contains { $0.hasPrefix(".tmp-") })
    }

    @Test func twoProcessesSharingADirectoryDoNotCorruptIt() throws {
        let dir = try TemporaryDirectory()
        let a = try ChildProcess(Helper.writer, ["loop", dir.path("cache")])
        let b = try ChildProcess(Helper.writer, ["loop", dir.path("cache")])
        var seenA = -1
        var seenB = -1
        while seenA < 25 || seenB < 25 {
            if seenA < 25, let l = a.readLine(), let n = Int(l) { seenA = n }
            if seenB < 25, let l = b.readLine(), let n = Int(l) { seenB = n }
        }
        a.killHard()
        b.killHard()
        let cache = try DiskCache(config: .init(directory: dir.path("cache"), sizeLimit: 0, sweepInterval: nil))
        #expect(cache.openingReport.invalidRemoved == 0)
        for n in 0...min(seenA, seenB) {
            #expect(try cache.value(forKey: "key-\(n)") == CrashPayload.bytes(for: n))
        }
    }
}
