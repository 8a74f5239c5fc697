import Logging

#if canImport(Glibc)
    import Glibc
#endif

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension ImageManager {
    /// The process-wide manager: the cache `default` under `$XDG_CACHE_HOME/magpie` (else
    /// `~/.cache/magpie`) and its own downloader. When that folder cannot be used (no `HOME`,
    /// refused as insecure, not creatable), the disk cache goes to a new private folder made with
    /// `mkdtemp` for this process alone (never a shared, predictable place), and a warning is
    /// logged; only when even that fails does it trap.
    public static let shared: ImageManager = {
        let logger = Logger(label: "magpie.manager")
        do {
            return ImageManager(cache: try ImageCache(name: "default"))
        } catch {
            let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
            var template = Array((base + "/magpie-XXXXXX").utf8CString)
            guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
                fatalError("ImageManager.shared: \(error); no private temporary folder either")
            }
            let folder = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
            logger.warning(
                "default cache unusable, using a private folder",
                metadata: ["error": "\(error)", "folder": "\(folder)"])
            return ImageManager(cache: try! ImageCache(name: "default", disk: DiskCache.Config(directory: folder)))
        }
    }()
}
