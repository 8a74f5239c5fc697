import ArgumentParser
import Magpie
import MagpieLoopback

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "The whole pipeline, offline: a loopback server, a mixed list of URLs, three passes.",
        discussion: """
            Starts an HTTP server on 127.0.0.1 inside this process, serving images it draws (JPEG \
            photos-like gradients and PNGs with alpha). Fetches a list with many duplicate URLs \
            (and two that fail) as thumbnails through a temporary cache: cold, then again with \
            the same manager (memory hits), then with a new manager over the same disk cache \
            (disk hits). Prints origin requests against requests made, coalesced requests, hits \
            and timings.
            """)

    @Option(name: .long, help: "Distinct images on the server.") var images = 12
    @Option(name: .long, help: "URLs in the list (duplicates included).") var requests = 240
    @Option(name: .shortAndLong, help: "Retrievals running at once.") var jobs = 32
    @Option(name: .shortAndLong, help: "Thumbnail size (fit inside SIZE × SIZE).") var size = 128
    @Option(name: .long, help: "Keep the cache in DIR instead of a temporary directory.") var cacheDir: String?

    func validate() throws {
        guard images > 0, requests > 0, jobs > 0, size > 0 else {
            throw ValidationError("--images, --requests, --jobs and --size must be positive")
        }
    }

    struct Pass {
        var name: String
        var seconds = 0.0
        var ok = 0
        var failed = 0
        var memory = 0
        var disk = 0
        var network = 0
        var shared = 0
        var originRequests = 0
        var downloads = 0
    }

    func run() async throws {
        let assets = try Self.drawImages(images)
        let server = try await LoopbackServer(threads: 2) { request in
            let name = request.path.split(separator: "/").last.map(String.init) ?? ""
            if let asset = assets[name] { return .ok(asset.bytes, contentType: asset.contentType) }
            if name == "page.html" { return .ok(Array("<html>not an image</html>".utf8), contentType: "text/html") }
            return .respond(status: 404)
        }
        // A fresh private folder (mkdtemp, 0700): a predictable name could be a link planted there.
        let temporary = cacheDir == nil ? try Self.makeTemporaryDirectory() : nil
        let dir = cacheDir ?? temporary! + "/cache"
        defer { if let temporary { Self.removeTree(temporary) } }
        let list = Self.urlList(server.baseURL, names: assets.keys.sorted(), count: requests)
        print("magpie demo: \(assets.count) images on \(server.baseURL), \(list.count) URLs, \(jobs) at a time")
        print("thumbnails of at most \(size)×\(size) px, cache in \(dir)\n")
        let options = try ImageOptions.make { make in make.size.lessThanOrEqualTo(size) }

        let first = try makeManager(dir)
        var passes: [Pass] = []
        passes.append(await fetch("cold", list, first, options, server))
        passes.append(await fetch("warm memory", list, first, options, server))
        await first.cache.shutdown()
        try? await first.downloader.shutdown()
        let second = try makeManager(dir)
        passes.append(await fetch("warm disk", list, second, options, server))
        await second.cache.shutdown()
        try? await second.downloader.shutdown()
        try await server.shutdown()

        Self.printTable(passes)
        let cold = passes[0]
        let distinct = Set(list).count
        print(
            "\ncold: \(cold.ok + cold.failed) requests for \(distinct) distinct URLs reached the origin "
                + "\(cold.originRequests) times; \(cold.shared) requests joined a download, decode and resize "
                + "already in flight.")
        print(
            "warm memory: \(passes[1].originRequests) origin requests (the failed URLs are remembered by the "
                + "downloader); warm disk: a new manager, \(passes[2].disk) disk hits.")
    }

    func makeManager(_ dir: String) throws -> ImageManager {
        let cache = try ImageCache(
            memory: .init(cleanInterval: nil), disk: DiskCache.Config(directory: dir, sweepInterval: nil))
        return ImageManager(cache: cache)
    }

    func fetch(
        _ name: String, _ urls: [URL], _ manager: ImageManager, _ options: ImageOptions, _ server: LoopbackServer
    )
        async -> Pass
    {
        var pass = Pass(name: name)
        let requestsBefore = server.totalRequests
        let downloadsBefore = manager.downloader.statistics.downloads
        let start = ContinuousClock.now
        await Net.forEach(urls, limit: jobs) { _, url -> Result<RetrieveImageResult, any Error> in
            do {
                return .success(try await manager.retrieveImage(with: .network(url), options: options))
            } catch {
                return .failure(error)
            }
        } each: { _, result in
            switch result {
            case .success(let r):
                pass.ok += 1
                switch r.cacheType {
                case .memory: pass.memory += 1
                case .disk: pass.disk += 1
                case .none: pass.network += 1
                }
                if r.coalesced { pass.shared += 1 }
            case .failure:
                pass.failed += 1
            }
        }
        pass.seconds = Net.seconds(since: start)
        pass.originRequests = server.totalRequests - requestsBefore
        pass.downloads = manager.downloader.statistics.downloads - downloadsBefore
        return pass
    }

    static func printTable(_ passes: [Pass]) {
        func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }
        func lpad(_ s: String, _ n: Int) -> String { s.count >= n ? s : String(repeating: " ", count: n - s.count) + s }
        let header = ["pass", "requests", "origin", "shared", "memory", "disk", "new", "failed", "time"]
        let widths = [13, 9, 7, 7, 7, 6, 5, 7, 9]
        print(
            zip(header, widths).enumerated().map { $0 == 0 ? pad($1.0, $1.1) : lpad($1.0, $1.1) }.joined(separator: " ")
        )
        for p in passes {
            let cells = [
                p.name, "\(p.ok + p.failed)", "\(p.originRequests)", "\(p.shared)", "\(p.memory)", "\(p.disk)",
                "\(p.network)", "\(p.failed)", Net.format(p.seconds * 1000, decimals: 0) + " ms",
            ]
            print(
                zip(cells, widths).enumerated().map { $0 == 0 ? pad($1.0, $1.1) : lpad($1.0, $1.1) }.joined(
                    separator: " "))
        }
        print("\norigin: requests that reached the server; shared: callers that joined a fetch in flight;")
        print("new: images fetched and made in that pass (the rest came from memory or disk).")
    }

    struct Asset: Sendable {
        var bytes: [UInt8]
        var contentType: String
    }

    /// Draws `count` images: smooth gradients with a few shapes, JPEG, and every fourth a PNG
    /// with a transparent border.
    static func drawImages(_ count: Int) throws -> [String: Asset] {
        var out: [String: Asset] = [:]
        let sizes = [(640, 480), (1024, 768), (480, 640), (800, 800), (1280, 720), (320, 240)]
        for i in 0..<count {
            let (w, h) = sizes[i % sizes.count]
            let png = i % 4 == 3
            var pixels = [UInt8](repeating: 255, count: w * h * 4)
            let cx = w / 2 + (i * 37) % (w / 4)
            let cy = h / 2 - (i * 23) % (h / 4)
            let r2 = (min(w, h) / 5) * (min(w, h) / 5)
            pixels.withUnsafeMutableBufferPointer { p in
                for y in 0..<h {
                    for x in 0..<w {
                        let o = (y * w + x) * 4
                        let dx = x - cx
                        let dy = y - cy
                        let inside = dx * dx + dy * dy < r2
                        p[o] = UInt8(truncatingIfNeeded: inside ? 230 : x * 255 / w + i * 17)
                        p[o + 1] = UInt8(truncatingIfNeeded: inside ? 90 + i * 9 : y * 255 / h)
                        p[o + 2] = UInt8(truncatingIfNeeded: inside ? 40 : (x + y) * 128 / (w + h) + 60)
                        if png && (x < 8 || y < 8 || x >= w - 8 || y >= h - 8) { p[o + 3] = 0 }
                    }
                }
            }
            let image = try Image(width: w, height: h, rgba: pixels)
            let bytes = try image.encoded(as: png ? .png() : .jpeg(quality: 85))
            out["photo-\(i).\(png ? "png" : "jpg")"] = Asset(
                bytes: bytes, contentType: png ? "image/png" : "image/jpeg")
        }
        return out
    }

    /// `count` URLs over `names`, skewed so a few are asked for often (a deterministic shuffle),
    /// plus a 404 and an HTML page.
    static func urlList(_ base: String, names: [String], count: Int) -> [URL] {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return seed >> 33
        }
        var urls: [URL] = []
        for _ in 0..<max(0, count - 2) {
            // Squaring a uniform draw favours the first names: popular images, long tail.
            let u = Double(next() % 10_000) / 10_000
            let index = min(names.count - 1, Int(u * u * Double(names.count)))
            urls.append(URL(string: base + "/images/" + names[index])!)
        }
        urls.insert(URL(string: base + "/images/missing.jpg")!, at: urls.count / 3)
        urls.insert(URL(string: base + "/images/page.html")!, at: 2 * urls.count / 3)
        return urls
    }

    static func makeTemporaryDirectory() throws -> String {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        var template = Array((base + "/magpie-demo-XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw CLIError("cannot create a temporary directory in \(base): \(String(cString: strerror(errno)))")
        }
        return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Deletes the folder `path` and what is in it without following links: each level is opened
    /// with `O_NOFOLLOW | O_DIRECTORY` and its names unlinked relative to that descriptor, so a
    /// link inside is removed, never its target.
    static func removeTree(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return }
        removeContents(fd)
        close(fd)
        rmdir(path)
    }

    private static func removeContents(_ fd: Int32) {
        let walker = dup(fd)
        guard walker >= 0, let d = fdopendir(walker) else { return }
        var names: [String] = []
        while let e = readdir(d) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        closedir(d)
        for name in names where unlinkat(fd, name, 0) != 0 && errno == EISDIR {
            let child = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard child >= 0 else { continue }
            removeContents(child)
            close(child)
            unlinkat(fd, name, AT_REMOVEDIR)
        }
    }
}
