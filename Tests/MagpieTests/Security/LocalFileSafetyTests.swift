import Foundation
import MagpieTestSupport
import Testing

@testable import Magpie

/// What a local user or a dying disk can put where Magpie reads and writes: FIFOs and devices,
/// foreign files, links, other users' folders, sparse files, read-only folders.
@Suite struct LocalFileSafetyTests {
    @Test func fifosAndDevicesFailAtOnce() async throws {
        let dir = try TemporaryDirectory()
        let fifo = dir.path("pipe.png")
        #expect(mkfifo(fifo, 0o600) == 0)
        // Each of these used to block forever in open(2) waiting for a writer.
        #expect(throws: ImageCodecError.self) { try ImageInfo(contentsOfFile: fifo) }
        #expect(throws: ImageCodecError.self) { try Image(contentsOfFile: fifo) }
        let downloader = ImageDownloader()
        for url in [URL(fileURLWithPath: fifo), URL(fileURLWithPath: "/dev/zero")] {
            await #expect(throws: ImageDownloadError.self) { try await downloader.download(url) }
        }
        try await downloader.shutdown()
        for arguments in [["info", fifo], ["thumb", fifo, "-s", "32", "-o", dir.path("t.png")]] {
            let result = try await CLI.runAsync(arguments)
            #expect(result.status == 1, "\(arguments[0])")
            #expect(result.stderr.contains("not a regular file"), "\(arguments[0]): \(result.stderr)")
        }
        let fetched = try await CLI.runAsync(["fetch", fifo, "--cache-dir", dir.path("cache"), "--json"])
        #expect(fetched.status == 1)
    }

    /// Outputs respect the umask and keep the mode of the file they replace.
    @Test func outputModesFollowUmaskAndTheReplacedFile() throws {
        let dir = try TemporaryDirectory()
        let input = dir.path("in.png")
        try Data(NetFixture.png).write(to: URL(fileURLWithPath: input))
        func thumb(_ out: String, umask: String) throws -> Int {
            let shell = try CLI.runShell("umask \(umask); exec \"$0\" thumb \"$1\" -s 16 -o \"$2\"", [input, out])
            #expect(shell.status == 0, "\(shell.stderr)")
            let attributes = try FileManager.default.attributesOfItem(atPath: out)
            return (attributes[.posixPermissions] as? Int) ?? -1
        }
        #expect(try thumb(dir.path("private.png"), umask: "077") == 0o600)
        #expect(try thumb(dir.path("shared.png"), umask: "022") == 0o644)
        // Replacing a 0600 file under a permissive umask keeps it 0600.
        #expect(try thumb(dir.path("private.png"), umask: "000") == 0o600)
    }

    func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    /// `cache clear` used to delete whole trees (and a symlinked folder's target); opening a
    /// folder used to delete every file that was not an entry.
    @Test func clearingAndOpeningTouchOnlyTheCachesOwnFiles() throws {
        let dir = try TemporaryDirectory()
        // A folder with somebody's files and no marker is refused, and left as it was.
        let documents = dir.path("documents")
        try FileManager.default.createDirectory(atPath: documents + "/sub", withIntermediateDirectories: true)
        try Data("precious".utf8).write(to: URL(fileURLWithPath: documents + "/notes.txt"))
        try Data("deep".utf8).write(to: URL(fileURLWithPath: documents + "/sub/deep.txt"))
        for command in [["stats"], ["clear"], ["clean"]] {
            let result = try CLI.run(["cache"] + command + ["--cache-dir", documents])
            #expect(result.status == 1 && result.stderr.contains("not a Magpie cache"), "\(result.stderr)")
        }
        #expect(throws: DiskCacheError.notACacheDirectory(path: documents)) {
            try DiskCache(config: .init(directory: documents, sweepInterval: nil))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: documents).sorted() == ["notes.txt", "sub"])
        // A symlinked cache folder is refused: clearing it would reach the link's target.
        let link = dir.path("link")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: documents)
        let viaLink = try CLI.run(["cache", "clear", "--cache-dir", link])
        #expect(viaLink.status == 1 && viaLink.stderr.contains("symbolic link"), "\(viaLink.stderr)")
        #expect(FileManager.default.fileExists(atPath: documents + "/sub/deep.txt"))
        // A real cache: foreign files, folders and links inside survive opening and clearing.
        let folder = dir.path("cache")
        let cache = try DiskCache(config: .init(directory: folder, sweepInterval: nil))
        try cache.store([1, 2, 3], forKey: "a")
        try cache.store([4, 5, 6], forKey: "b")
        try Data("mine".utf8).write(to: URL(fileURLWithPath: folder + "/README"))
        try FileManager.default.createDirectory(atPath: folder + "/keep", withIntermediateDirectories: false)
        try Data("inside".utf8).write(to: URL(fileURLWithPath: folder + "/keep/file"))
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/" + cache.fileName(forKey: "c"), withDestinationPath: documents + "/notes.txt")
        let reopened = try DiskCache(config: .init(directory: folder, sweepInterval: nil))
        #expect(reopened.count == 2)
        #expect(FileManager.default.fileExists(atPath: folder + "/README"))
        let cleared = try CLI.run(["cache", "clear", "--cache-dir", folder])
        #expect(cleared.status == 0, "\(cleared.stderr)")
        // (The index's log and shared-memory files go when the last connection to it closes.)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder).sorted().filter {
            !$0.hasPrefix(CacheIndex.fileName + "-")
        }
        let own = [".magpie-cache", ".magpie-tmp", CacheIndex.fileName]
        #expect(left == (own + ["README", cache.fileName(forKey: "c"), "keep"]).sorted())
        #expect(try String(contentsOfFile: documents + "/notes.txt", encoding: .utf8) == "precious")
        #expect(FileManager.default.fileExists(atPath: folder + "/keep/file"))
        #expect(try reopened.value(forKey: "a") == nil)
    }

    /// Folders 0700, entries 0600, whatever the umask; another user's folder or one others may
    /// write to is refused.
    @Test func cacheFilesArePrivateAndForeignFoldersRefused() throws {
        let dir = try TemporaryDirectory()
        let folder = dir.path("x/y/cache")
        let cache = try DiskCache(config: .init(directory: folder, sweepInterval: nil))
        try cache.store([9], forKey: "private")
        try cache.store([UInt8](repeating: 9, count: 100_000), forKey: "private-file")
        #expect(try mode(folder) == 0o700)
        #expect(try mode(dir.path("x")) == 0o700)
        #expect(try mode(cache.path(forKey: "private-file")) == 0o600)
        // The index, which holds the small entries, and the files SQLite keeps beside it.
        for name in CacheIndex.fileNames { #expect(try mode(folder + "/" + name) == 0o600, "\(name)") }
        #expect(try mode(folder + "/.magpie-tmp") == 0o700)
        let open = dir.path("open")
        try FileManager.default.createDirectory(atPath: open, withIntermediateDirectories: false)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: open)
        #expect(throws: DiskCacheError.insecureDirectory(path: open, reason: "group or others may write to it")) {
            try DiskCache(config: .init(directory: open, sweepInterval: nil))
        }
        if getuid() == 0 {
            let theirs = dir.path("theirs")
            try FileManager.default.createDirectory(atPath: theirs, withIntermediateDirectories: false)
            #expect(chown(theirs, 65534, 65534) == 0)
            #expect(throws: DiskCacheError.self) { try DiskCache(config: .init(directory: theirs, sweepInterval: nil)) }
            #expect(FileManager.default.fileExists(atPath: theirs))
        } else {
            print("SKIPPED: another user's cache folder (needs root to chown)")
        }
    }

    /// With HOME unset the cache went to /tmp/.cache/magpie, where anyone can plant entries.
    @Test func noHomeMeansNoDefaultFolder() throws {
        #expect(DiskCache.defaultDirectory(name: "d", environment: [:]) == nil)
        #expect(DiskCache.defaultDirectory(name: "d", environment: ["HOME": "relative"]) == nil)
        #expect(DiskCache.defaultDirectory(name: "d", environment: ["HOME": "/home/u"]) == "/home/u/.cache/magpie/d")
        #expect(
            DiskCache.defaultDirectory(name: "d", environment: ["HOME": "/home/u", "XDG_CACHE_HOME": "/c"])
                == "/c/magpie/d")
        // MAGPIE_CACHE_HOME points `ImageManager.shared` and the CLI elsewhere (a relative one is ignored).
        let all = ["HOME": "/home/u", "XDG_CACHE_HOME": "/c", "MAGPIE_CACHE_HOME": "/srv/img/"]
        #expect(DiskCache.defaultDirectory(name: "d", environment: all) == "/srv/img/d")
        #expect(DiskCache.defaultDirectory(name: "d", environment: ["MAGPIE_CACHE_HOME": "srv"]) == nil)
        let dir = try TemporaryDirectory()
        let pointed = try CLI.runShell(
            "MAGPIE_CACHE_HOME=\"$1\" exec \"$0\" cache stats", [dir.path("elsewhere")])
        #expect(pointed.status == 0, "\(pointed.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir.path("elsewhere") + "/default/.magpie-cache"))
        let result = try CLI.runShell(
            "cd \"$1\"; exec env -u HOME -u XDG_CACHE_HOME -u MAGPIE_CACHE_HOME \"$0\" cache stats",
            [dir.url.path])
        #expect(
            result.status == 1 && result.stderr.contains("set MAGPIE_CACHE_HOME, XDG_CACHE_HOME or HOME"),
            "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/.cache/magpie/default/.magpie-cache"))
    }

    /// A sparse entry declaring 64 GiB used to abort with a failed allocation.
    @Test func hugeAndSpecialEntriesAreInvalidNotRead() throws {
        let dir = try TemporaryDirectory()
        let folder = dir.path("cache")
        let cache = try DiskCache(
            config: .init(directory: folder, sizeLimit: 0, sweepInterval: nil, inlineThreshold: 0))
        try cache.store([UInt8](repeating: 7, count: 4000), forKey: "sparse")
        try cache.store([1], forKey: "fifo")
        // Grow the entry to 64 GiB (sparse) and make its header declare that payload.
        let path = cache.path(forKey: "sparse")
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        let header = try #require(try handle.read(upToCount: 8))
        let headerSize = Int(header[6]) | Int(header[7]) << 8
        let payload = UInt64(64) << 30
        try handle.seek(toOffset: 8)
        try handle.write(contentsOf: withUnsafeBytes(of: payload.littleEndian) { Data($0) })
        try handle.truncate(atOffset: UInt64(headerSize) + payload)
        try handle.close()
        // A FIFO under an entry's name.
        try FileManager.default.removeItem(atPath: cache.path(forKey: "fifo"))
        #expect(mkfifo(cache.path(forKey: "fifo"), 0o600) == 0)
        #expect(try cache.value(forKey: "sparse") == nil)
        #expect(try cache.value(forKey: "fifo") == nil)
        let reopened = try DiskCache(config: .init(directory: folder, sizeLimit: 0, sweepInterval: nil))
        #expect(try reopened.value(forKey: "sparse") == nil && reopened.count == 0)
        let stats = try CLI.run(["cache", "stats", "--cache-dir", folder])
        #expect(stats.status == 0, "\(stats.stderr)")
        let fetched = try CLI.run(["fetch", "file://" + folder + "/none", "--cache-dir", folder])
        #expect(fetched.status == 1 && !fetched.stderr.contains("Fatal"))
    }

    /// A read-only cache: stats and hits work, writes fail once with a clear message. The folder
    /// is made read-only for its owner; as root (who writes anywhere) the folder is given to
    /// `nobody` and the commands run as `nobody` through `setpriv`.
    @Test func aReadOnlyCacheServesHits() throws {
        let dir = try TemporaryDirectory()
        let folder = dir.path("cache")
        let image = dir.path("a.png")
        try Data(NetFixture.png).write(to: URL(fileURLWithPath: image))
        let warm = try CLI.run(["fetch", image, "--cache-dir", folder, "-s", "16"])
        #expect(warm.status == 0, "\(warm.stderr)")
        var prefix: [String] = []
        if getuid() == 0 {
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
                print("SKIPPED: read-only cache as root needs setpriv")
                return
            }
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.url.path)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: image)
            for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
                #expect(chown(folder + "/" + name, 65534, 65534) == 0)
            }
            #expect(chown(folder, 65534, 65534) == 0)
            prefix = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        }
        #expect(chmod(folder, 0o500) == 0)
        defer { chmod(folder, 0o700) }
        func run(_ arguments: [String]) throws -> CLI.Result {
            prefix.isEmpty
                ? try CLI.run(arguments)
                : try CLI.run(
                    arguments: Array(prefix.dropFirst()) + [CLI.binary.path] + arguments,
                    executable: URL(fileURLWithPath: prefix[0]))
        }
        let stats = try run(["cache", "stats", "--cache-dir", folder])
        #expect(stats.status == 0 && stats.stdout.contains("read-only: yes"), "\(stats.stderr)")
        #expect(stats.stdout.contains("entries: 1"), "\(stats.stdout)")
        let hit = try run(["fetch", image, "--cache-dir", folder, "-s", "16", "--json"])
        #expect(hit.status == 0 && hit.stdout.contains("\"disk_hits\": 1"), "\(hit.stdout) \(hit.stderr)")
        // A new image is still returned; the warning is printed once.
        let other = dir.path("b.png")
        try Data(NetFixture.jpeg).write(to: URL(fileURLWithPath: other))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: other)
        let miss = try run(["fetch", other, image, "--cache-dir", folder, "-s", "8", "--json"])
        #expect(miss.status == 0 && miss.stdout.contains("\"failed\": 0"), "\(miss.stdout) \(miss.stderr)")
        #expect(miss.stderr.components(separatedBy: "read-only").count == 2, "\(miss.stderr)")
        let after = try run(["cache", "stats", "--cache-dir", folder])
        #expect(after.stdout.contains("entries: 1"), "nothing was written: \(after.stdout)")
    }

    /// `magpie demo` used the predictable `$TMPDIR/magpie-demo-<pid>` and emptied whatever a
    /// planted link there pointed to. Now: a fresh `mkdtemp` folder, removed without following
    /// links, and nothing else in `$TMPDIR` touched.
    @Test func theDemoUsesAPrivateTemporaryFolder() throws {
        let dir = try TemporaryDirectory()
        let victim = dir.path("victim")
        try FileManager.default.createDirectory(atPath: victim, withIntermediateDirectories: false)
        try Data("keep".utf8).write(to: URL(fileURLWithPath: victim + "/file"))
        let tmp = dir.path("tmp")
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: false)
        // Links under the old predictable names of the next few hundred processes.
        let base = Int(getpid())
        for pid in base..<(base + 300) {
            try FileManager.default.createSymbolicLink(atPath: tmp + "/magpie-demo-\(pid)", withDestinationPath: victim)
        }
        let result = try CLI.runShell(
            "TMPDIR=\"$1\" exec \"$0\" demo --images 2 --requests 12 -j 4", [tmp])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(tmp + "/magpie-demo-"), "\(result.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: victim) == ["file"])
        // Only the planted links are left: the demo's own folder is gone.
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp).count == 300)
    }
}
