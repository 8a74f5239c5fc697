import Foundation
import MagpieTestSupport
import Testing

@testable import Magpie

/// A file's identity kept as a digest that still tells a changed file from the one this process
/// checked.
extension DiskCacheTests {
    @Test func aStampDigestChangesWithAnyPartOfTheStamp() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("f")
        try Data(repeating: 1, count: 10).write(to: URL(fileURLWithPath: path))
        var st = stat()
        #expect(stat(path, &st) == 0)
        let stamp = DiskCache.FileStamp(st)
        #expect(stamp.digest == DiskCache.FileStamp(st).digest && stamp.digest != 0)
        for change in [
            { (s: inout DiskCache.FileStamp) in s.inode += 1 }, { $0.size += 1 }, { $0.modified += 1 },
            { $0.modifiedNanoseconds += 1 },
        ] {
            var other = stamp
            change(&other)
            #expect(other.digest != stamp.digest)
        }
    }

    @Test func aCheckedFileRewrittenInPlaceIsCheckedAgain() throws {
        let dir = try TemporaryDirectory()
        let cache = try makeCache(dir)
        let payload = [UInt8](repeating: 7, count: 100_000)  // large enough to be stamped when written
        try cache.store(payload, forKey: "big")
        #expect(try cache.value(forKey: "big") == payload)
        #expect(try cache.value(forKey: "big") == payload, "the same file again, its check skipped")
        let path = cache.path(forKey: "big")
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try handle.seek(toOffset: 90_000)
        try handle.write(contentsOf: Data([0xFF]))
        try handle.close()
        // Same size; a modification time the index has not seen (set, not left to the clock's grain).
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_000_000_000)], ofItemAtPath: path)
        #expect(try cache.value(forKey: "big") == nil, "the payload fails its CRC and is never served")
        #expect(cache.invalidEntriesRemoved == 1)
    }
}
