#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The cache folder as the machine's other users and programs may leave it: where it is by
/// default, who owns it, whether it is ours (its marker file), and which of its files are ours
/// to delete.
extension DiskCache {
    /// The marker file every cache folder holds; its first line names the format.
    static let markerName = ".magpie-cache"
    static let markerContents = "magpie disk cache, format 1\n"

    /// `$MAGPIE_CACHE_HOME/<name>` (where a server puts its caches: `ImageManager.shared`, the CLI),
    /// else `$XDG_CACHE_HOME/magpie/<name>`, else `$HOME/.cache/magpie/<name>`; `nil` when none
    /// is an absolute path (never a shared location such as `/tmp`).
    static func defaultDirectory(name: String, environment: [String: String]) -> String? {
        if let root = environment["MAGPIE_CACHE_HOME"], root.hasPrefix("/") {
            return (root.hasSuffix("/") ? String(root.dropLast()) : root) + "/" + name
        }
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/magpie/" + name }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return (home == "/" ? "" : home) + "/.cache/magpie/" + name
        }
        return nil
    }

    /// Opens the cache folder at `path`, creating it (mode 0700, with its marker) when missing.
    /// Refuses a folder that is a symbolic link, belongs to another user, is writable by group or
    /// others, or holds files without being a cache (no marker). Returns whether it is writable.
    static func prepareDirectory(_ path: String) throws(DiskCacheError) -> Bool {
        var st = stat()
        if lstat(path, &st) != 0 {
            guard errno == ENOENT else { throw .cannotCreateDirectory(path: path, errno: errno) }
            try createDirectory(path)
            makeTemporaryFolder(path)
            guard lstat(path, &st) == 0 else { throw .cannotCreateDirectory(path: path, errno: errno) }
        }
        if (st.st_mode & S_IFMT) == S_IFLNK { throw .insecureDirectory(path: path, reason: "it is a symbolic link") }
        guard (st.st_mode & S_IFMT) == S_IFDIR else { throw .notADirectory(path: path) }
        if st.st_uid != geteuid() {
            throw .insecureDirectory(path: path, reason: "it belongs to user \(st.st_uid), not to user \(geteuid())")
        }
        if st.st_mode & 0o022 != 0 {
            throw .insecureDirectory(path: path, reason: "group or others may write to it")
        }
        guard access(path, R_OK | X_OK) == 0 else { throw .cannotCreateDirectory(path: path, errno: errno) }
        let writable = access(path, W_OK) == 0
        var marker = stat()
        if lstat(path + "/" + markerName, &marker) == 0 && (marker.st_mode & S_IFMT) == S_IFREG { return writable }
        // No marker: an empty folder, or one written by a version without markers that holds
        // nothing but entries, becomes a cache; anything else is somebody's folder. Another
        // process may be setting the same folder up right now: its marker, secret and size
        // record, and files that vanish while we look (its temporary marker, renamed), are not
        // somebody else's.
        if entryNames(path).contains(where: { isForeign(path, $0) }) { throw .notACacheDirectory(path: path) }
        if writable { writeMarker(path) }
        return writable
    }

    /// Creates `path` and its missing parents, each 0700.
    private static func createDirectory(_ path: String) throws(DiskCacheError) {
        var built = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            built += "/" + part
            if mkdir(built, 0o700) != 0 && errno != EEXIST {
                throw .cannotCreateDirectory(path: path, errno: errno)
            }
        }
        writeMarker(path)
    }

    /// Whether `name` in `dir` shows the folder is not a cache: it still exists, and it is neither
    /// one of a cache's own files nor its marker, secret or size record.
    static func isForeign(_ dir: String, _ name: String) -> Bool {
        if isCachesOwnName(name) { return false }
        var st = stat()
        if lstat(dir + "/" + name, &st) != 0 && errno == ENOENT { return false }
        return !isOwnFile(dir, name)
    }

    /// The size record of versions before the index (still in folders they wrote; unused now).
    static let legacySizeRecordName = ".magpie-size"

    /// The names of a cache's own bookkeeping: marker, secret, index, temporary folder, and an
    /// earlier version's size record.
    static func isCachesOwnName(_ name: String) -> Bool {
        name == markerName || name == secretName || name == legacySizeRecordName || name == temporaryFolder
            || CacheIndex.fileNames.contains(name)
    }

    /// Writes the marker through a temporary file and a rename (0600).
    static func writeMarker(_ path: String) {
        let temporary = path + "/.tmp-\(getpid())-marker"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        let ok = Array(markerContents.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) == $0.count }
        close(fd)
        if !ok || rename(temporary, path + "/" + markerName) != 0 { unlink(temporary) }
    }

    static let secretName = ".magpie-key"

    /// The folder's secret for keyed digests (32 random bytes in `.magpie-key`, 0600, made on
    /// first use), so entries keyed by a digest of credentials are found again by the next
    /// process; a fresh per-process secret when the folder is read-only and has none.
    static func loadSecret(_ dir: String, writable: Bool) -> [UInt8] {
        let path = dir + "/" + secretName
        for _ in 0..<2 {
            let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
            if fd >= 0 {
                var st = stat()
                var secret = [UInt8](repeating: 0, count: 32)
                let ok =
                    fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG && st.st_uid == geteuid()
                    && st.st_mode & 0o077 == 0 && st.st_size == 32
                    && secret.withUnsafeMutableBytes { readAll(fd, $0, at: 0) } == 32
                close(fd)
                if ok { return secret }
                if writable { unlink(path) }  // not ours to trust: replace it
            }
            guard writable else { break }
            // Made aside and linked into place, so two processes agree on one secret.
            var fresh = [UInt8](repeating: 0, count: 32)
            var rng = SystemRandomNumberGenerator()
            for i in fresh.indices { fresh[i] = UInt8.random(in: 0...255, using: &rng) }
            let temporary = dir + "/.tmp-\(getpid())-key-\(UInt64.random(in: 0...UInt64.max))"
            let wfd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard wfd >= 0 else { break }
            let written = fresh.withUnsafeBytes { write(wfd, $0.baseAddress, 32) } == 32
            close(wfd)
            let linked = written && link(temporary, path) == 0
            unlink(temporary)
            if linked { return fresh }
        }
        var rng = SystemRandomNumberGenerator()
        return (0..<32).map { _ in UInt8.random(in: 0...255, using: &rng) }
    }

    /// Whether `name` in the cache folder `dir` is one of a cache's own files: a regular file
    /// that is a temporary file (`.tmp-…`), or starts like an entry (or needs not, when
    /// `requiringMagic` is false: a file under an entry's hashed name is an entry, valid or not).
    /// Links, folders and foreign files are not.
    static func isOwnFile(_ dir: String, _ name: String, dirfd: Int32 = -1, requiringMagic: Bool = true) -> Bool {
        if isCachesOwnName(name) { return false }
        var st = stat()
        let found = dirfd >= 0 ? fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) : lstat(dir + "/" + name, &st)
        guard found == 0, (st.st_mode & S_IFMT) == S_IFREG else { return false }
        if name.hasPrefix(".tmp-") || !requiringMagic { return true }
        let flags = O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK
        let fd = dirfd >= 0 ? openat(dirfd, name, flags) : open(dir + "/" + name, flags)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var head = (UInt8(0), UInt8(0), UInt8(0), UInt8(0))
        let got = withUnsafeMutableBytes(of: &head) { pread(fd, $0.baseAddress, 4, 0) }
        return got == 4 && [head.0, head.1, head.2, head.3] == DiskEntryFormat.magic
    }

    /// Whether `name` is what a cache with `config` calls an entry: 32 hex digits (plus the
    /// extension) with hashed names; with unhashed names, any name but the marker and dot files.
    static func looksLikeEntryName(_ name: String, config: Config) -> Bool {
        guard config.usesHashedFileName else { return !name.hasPrefix(".") }
        let suffix = config.pathExtension.flatMap { $0.isEmpty ? nil : "." + $0 } ?? ""
        let utf8 = name.utf8
        guard utf8.count == 32 + suffix.utf8.count, name.hasSuffix(suffix) else { return false }
        return utf8.prefix(32).allSatisfy {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
        }
    }

    /// Deletes the cache's own files in `dir` (entries and temporary files), relative to a
    /// descriptor opened without following links; leaves the marker, links, folders and foreign
    /// files alone. Returns the names deleted.
    @discardableResult
    static func removeOwnFiles(in dir: String, config: Config) -> [String] {
        let dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard dirfd >= 0 else { return [] }
        defer { close(dirfd) }
        var removed: [String] = []
        for name in entryNames(dir) where name.hasPrefix(".tmp-") || looksLikeEntryName(name, config: config) {
            if isOwnFile(dir, name, dirfd: dirfd, requiringMagic: !config.usesHashedFileName)
                && unlinkat(dirfd, name, 0) == 0
            {
                removed.append(name)
            }
        }
        return removed
    }

    /// The names in a directory, without "." and ".."; empty when it cannot be read.
    static func entryNames(_ path: String) -> [String] {
        guard let d = opendir(path) else { return [] }
        defer { closedir(d) }
        var names: [String] = []
        while let e = readdir(d) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
