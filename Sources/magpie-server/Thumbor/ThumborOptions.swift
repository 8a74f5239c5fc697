import ArgumentParser
import MagpieServer
import Synchronization

/// thumbor's front door: `--thumbor-config PATH` reads thumbor's own configuration file
/// (``ThumborConfig``) and answers thumbor's URLs at the root.
struct ThumborOptions: ParsableArguments {
    @Option(
        name: .long,
        help: """
            Answer thumbor's URLs at the root, configured by this thumbor.conf (imgproxy's then only under \
            --path-prefix; see docs/thumbor.md).
            """)
    var thumborConfig: String?

    /// The settings the file gave, read once before the arguments are parsed (its keys add
    /// arguments of their own), for the service to take.
    static let loaded = Mutex<ThumborSettings?>(nil)

    /// The file `given` names (`--thumbor-config P` or `--thumbor-config=P`), read: the
    /// arguments its keys stand for and the notes for standard error. Nothing without the flag.
    static func preload(given: [String]) throws(ThumborConfig.Failure) -> (arguments: [String], notes: [String]) {
        var path: String?
        for (i, a) in given.enumerated() {
            if a == "--thumbor-config", i + 1 < given.count { path = given[i + 1] }
            if a.hasPrefix("--thumbor-config=") { path = String(a.dropFirst("--thumbor-config=".count)) }
        }
        guard let path else { return ([], []) }
        let read = try ThumborConfig.load(path: path, given: given)
        loaded.withLock { $0 = read.settings }
        return (read.arguments, read.notes)
    }
}
