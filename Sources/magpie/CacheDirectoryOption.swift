import ArgumentParser
import Magpie

/// `--cache-dir`, shared by every command that opens the cache.
struct CacheDirectoryOption: ParsableArguments {
    @Option(
        name: .long,
        help:
            "Cache directory (default: $MAGPIE_CACHE_HOME/default, else $XDG_CACHE_HOME/magpie/default, else ~/.cache/magpie/default)."
    )
    var cacheDir: String?

    /// The error for a cache that would not open, naming the folder.
    func failure(_ error: any Error) -> any Error {
        CLI.fail(cacheDir ?? DiskCache.Config().resolvedDirectory ?? "cache", error)
    }
}
