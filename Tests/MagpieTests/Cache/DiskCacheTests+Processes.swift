import Foundation
import MagpieTestSupport
import Testing

@testable import Magpie

/// Other processes on one cache folder: killed writers and concurrent ones.
extension DiskCacheTests {
    /// Files (64-256 KiB) and rows of the index (up to 16 KiB).
    @Test(arguments: [false, true]) func killingAWriterLosesAtMostTheEntryInFlight(small: Bool) throws {
        let dir = try TemporaryDirectory()
        let child = try ChildProcess(Helper.writer, [small ? "loop-small" : "loop", dir.path("cache")])
        var acknowledged = -1
        while acknowledged < 40, let line = child.readLine(), let n = Int(line) { acknowledged = n }
        child.killHard()
        #expect(acknowledged >= 40)
        // The writer used the wall clock; so does the reader here.
        let cache = try DiskCache(config: .init(directory: dir.path("cache"), sizeLimit: 0, sweepInterval: nil))
        for n in 0...acknowledged {
            #expect(try cache.value(forKey: "key-\(n)") == CrashPayload.bytes(for: n, small: small), "key-\(n)")
        }
        // Entries written after the last line we read are whole or absent, never torn.
        #expect(cache.count >= acknowledged + 1)
        for n in (acknowledged + 1)..<(cache.count + 5) {
            if let value = try cache.value(forKey: "key-\(n)") {
                #expect(value == CrashPayload.bytes(for: n, small: small))
            }
        }
        // Payloads up to 16 KiB: most are rows (up to the 8 KiB threshold), the rest files.
        let stats = cache.statistics()
        #expect(stats.rows + stats.files == cache.count && (small ? stats.rows > 0 : stats.rows == 0))
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path("cache/.magpie-tmp"))
        #expect(names.isEmpty, "a dead writer's temporary file is removed on opening")
    }

    @Test(arguments: [false, true]) func twoProcessesSharingADirectoryDoNotCorruptIt(small: Bool) throws {
        let dir = try TemporaryDirectory()
        let mode = small ? "loop-small" : "loop"
        let a = try ChildProcess(Helper.writer, [mode, dir.path("cache")])
        let b = try ChildProcess(Helper.writer, [mode, dir.path("cache")])
        var seenA = -1
        var seenB = -1
        // A writer that stops early (its output ends) fails the test rather than spinning it.
        reading: while seenA < 25 || seenB < 25 {
            for (child, name) in [(a, "a"), (b, "b")] where (name == "a" ? seenA : seenB) < 25 {
                guard let line = child.readLine() else {
                    Issue.record("writer \(name) stopped after \(name == "a" ? seenA : seenB)")
                    break reading
                }
                if let n = Int(line) { if name == "a" { seenA = n } else { seenB = n } }
            }
        }
        a.killHard()
        b.killHard()
        let cache = try DiskCache(config: .init(directory: dir.path("cache"), sizeLimit: 0, sweepInterval: nil))
        #expect(cache.openingReport.invalidRemoved == 0)
        for n in 0...min(seenA, seenB) {
            #expect(try cache.value(forKey: "key-\(n)") == CrashPayload.bytes(for: n, small: small))
        }
    }
}

extension DiskCacheTests {
    /// Two processes opening one new folder at once: the second may look while the first has
    /// made its secret, its size record and its temporary marker but not yet renamed the marker
    /// into place. That folder is a cache being set up, not somebody's folder (the writers of
    /// `twoProcessesSharingADirectoryDoNotCorruptIt` met this and one of them quit).
    @Test func aFolderAnotherProcessIsSettingUpOpensAsACache() throws {
        let dir = try TemporaryDirectory()
        let folder = dir.path("cache")
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: false,
            attributes: [.posixPermissions: 0o700])
        for name in [".magpie-key", ".magpie-size", ".magpie-cache"] {
            #expect(
                FileManager.default.createFile(
                    atPath: folder + "/" + name, contents: Data(count: 32), attributes: [.posixPermissions: 0o600]))
        }
        // The marker the other process renamed into place between our two looks: the first
        // look saw no marker, the listing sees it. (Here it is a directory, so the first look,
        // which wants a regular file, misses it as it would have.)
        try FileManager.default.removeItem(atPath: folder + "/.magpie-cache")
        try FileManager.default.createDirectory(atPath: folder + "/.magpie-cache", withIntermediateDirectories: false)
        let cache = try DiskCache(config: .init(directory: folder, sizeLimit: 0, sweepInterval: nil))
        try cache.store([1, 2, 3], forKey: "k")
        #expect(try cache.value(forKey: "k") == [1, 2, 3])
        // Somebody's file beside them still makes it somebody's folder.
        let other = dir.path("other")
        try FileManager.default.createDirectory(
            atPath: other, withIntermediateDirectories: false,
            attributes: [.posixPermissions: 0o700])
        #expect(FileManager.default.createFile(atPath: other + "/.magpie-key", contents: Data(count: 32)))
        #expect(FileManager.default.createFile(atPath: other + "/notes.txt", contents: Data("mine".utf8)))
        #expect(throws: DiskCacheError.notACacheDirectory(path: other)) {
            try DiskCache(config: .init(directory: other, sweepInterval: nil))
        }
    }
}
