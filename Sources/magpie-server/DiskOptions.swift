import ArgumentParser
import Magpie

/// The disk cache's limits beyond its size (`--disk-limit`): entries, the volume's free space,
/// and which entries are rows of the folder's index rather than files.
struct DiskOptions: ParsableArguments {
    @Option(name: .long, help: "Entries the disk cache may hold, rows and files (0 = none).")
    var diskCountLimit = DiskCache.Config().countLimit
    @Option(name: .long, help: "Free bytes the disk cache leaves on its volume: below it, it trims (0 = none).")
    var diskFreeSpace = DiskCache.Config().freeSpaceLimit
    @Option(
        name: .long,
        help: "Entries up to this many bytes are rows of the cache folder's index, larger ones files (0 = files only).")
    var diskInlineThreshold = DiskCache.Config().inlineThreshold

    func validate() throws {
        for (name, value) in [
            ("--disk-count-limit", diskCountLimit), ("--disk-free-space", diskFreeSpace),
            ("--disk-inline-threshold", diskInlineThreshold),
        ] where value < 0 {
            throw ValidationError("\(name) cannot be negative")
        }
        if diskInlineThreshold > 1 << 20 { throw ValidationError("--disk-inline-threshold is at most 1048576") }
    }

    func apply(to disk: inout DiskCache.Config) {
        disk.countLimit = diskCountLimit
        disk.freeSpaceLimit = diskFreeSpace
        disk.inlineThreshold = diskInlineThreshold
    }
}
