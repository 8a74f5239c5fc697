import ArgumentParser
import Magpie

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Inspect and maintain a disk cache.",
        subcommands: [Stats.self, Clean.self, Clear.self, Locate.self])

    struct Location: ParsableArguments {
        @OptionGroup var directory: CacheDirectoryOption

        @Option(name: .long, help: "Size limit in bytes used by clean (0 = none).")
        var sizeLimit: Int = DiskCache.Config().sizeLimit

        func open() throws -> DiskCache {
            do {
                return try DiskCache(
                    config: .init(directory: directory.cacheDir, sizeLimit: sizeLimit, sweepInterval: nil))
            } catch {
                throw directory.failure(error)
            }
        }
    }

    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stats",
            abstract: "Entries (rows of the index and files), bytes, bytes on disk and what opening repaired.")
        @OptionGroup var location: Location

        func run() throws {
            let cache = try location.open()
            let stats = cache.statistics()
            print("directory: \(cache.directory)")
            print("entries: \(stats.entries) (\(stats.rows) rows of the index, \(stats.files) files)")
            print("bytes: \(stats.bytes)")
            print("bytes on disk: \(stats.bytesOnDisk) (the index \(stats.indexBytesOnDisk))")
            print("size limit: \(cache.config.sizeLimit == 0 ? "none" : String(cache.config.sizeLimit))")
            if cache.isReadOnly { print("read-only: yes") }
            print(
                "removed on open: \(cache.openingReport.leftoversRemoved) leftovers, \(cache.openingReport.invalidRemoved) invalid entries"
            )
            if cache.migratedEntries > 0 { print("taken in from an earlier version: \(cache.migratedEntries) files") }
            if cache.indexRebuilds > 0 { print("index made again (it was damaged): \(cache.indexRebuilds)") }
        }
    }

    struct Clean: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clean",
            abstract: "Remove expired entries, then trim to half the size limit if it is exceeded.")
        @OptionGroup var location: Location

        func run() throws {
            let cache = try location.open()
            let expired = cache.removeExpiredValues()
            let trimmed = cache.removeSizeExceededValues()
            let stats = cache.statistics()
            print(
                "removed \(expired.count) expired and \(trimmed.count) least recently used entries; \(stats.entries) entries, \(stats.bytes) bytes (\(stats.bytesOnDisk) on disk) left"
            )
        }
    }

    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "clear", abstract: "Remove every entry.")
        @OptionGroup var location: Location

        func run() throws {
            let cache = try location.open()
            let count = cache.count
            do {
                try cache.removeAll()
            } catch {
                throw CLI.fail(cache.directory, error)
            }
            cache.waitForBackgroundWork()
            print("removed \(count) entries from \(cache.directory)")
        }
    }

    struct Locate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "locate",
            abstract: "Print a key's file name (its MD5) and whether and where it is cached.")
        @OptionGroup var location: Location
        @Argument(help: "The cache key (usually the URL).") var key: String

        func run() throws {
            let cache = try location.open()
            print("key: \(key)")
            print("file name: \(cache.fileName(forKey: key))")
            if cache.isCached(forKey: key), let info = cache.entryInfo(forKey: key) {
                print("cached: yes")
                if FileManager.default.fileExists(atPath: cache.path(forKey: key)) {
                    print("path: \(cache.path(forKey: key))")
                } else {
                    print("stored: a row of \(cache.directory)/.magpie-index.sqlite")
                }
                print("bytes: \(info.size)")
                if let etag = info.metadata.etag { print("etag: \(etag)") }
                if let type = info.metadata.contentType { print("content-type: \(type)") }
            } else {
                print("cached: no")
                throw ExitCode(2)
            }
        }
    }
}
