import ArgumentParser
import Magpie

#if canImport(Glibc)
    import Glibc
#endif

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct Fetch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Fetch images through the caches and the network, optionally as thumbnails.",
        discussion: """
            Each URL goes through the memory cache, the disk cache, the network (concurrent requests \
            for one URL share a download), decoding and downsampling, and is stored in the cache. \
            A summary follows: downloads, coalesced requests, memory and disk hits, failures, bytes, time.
            """)

    @Argument(help: "http(s), file, s3 or local URLs, or paths of files.") var urls: [String]
    @OptionGroup var flags: PipelineFlags
    @Option(name: .long, help: "Write each image to DIR (PNG when it has alpha, else JPEG; see --out-format).")
    var out: String?
    @Option(name: .long, help: "Format of the files --out writes: auto (PNG with alpha, else JPEG), jpg, png or webp.")
    var outFormat = "auto"

    func validate() throws {
        guard outFormat == "auto" || ImageFormat(fileExtension: outFormat)?.isEncodable == true else {
            let written = ImageFormat.all.filter(\.isEncodable).map(\.fileExtension).joined(separator: ", ")
            throw ValidationError("--out-format must be auto or a format this build writes: \(written)")
        }
    }

    struct Item: Sendable {
        var url: String
        var width = 0
        var height = 0
        var cacheType = ""
        var coalesced = false
        var error: String?
        var written: String?
    }

    func run() async throws {
        let parsed = try urls.map { try Net.parse($0) }
        let manager = try flags.makeManager()
        let options = try flags.options()
        if let out { try CLI.makeDirectory(out) }
        let start = ContinuousClock.now
        let bar = ProgressBar(total: parsed.count, enabled: Net.stderrIsTerminal && !flags.json)
        var items = [Item](repeating: Item(url: ""), count: parsed.count)
        var done = 0
        var failed = 0
        let out = self.out
        let outFormat = self.outFormat
        await Net.forEach(parsed, limit: flags.jobs) { i, url -> Item in
            var item = Item(url: url.absoluteString)
            do {
                let r = try await manager.retrieveImage(with: .network(url), options: options)
                item.width = r.image.width
                item.height = r.image.height
                item.cacheType = r.cacheType == .memory ? "memory" : r.cacheType == .disk ? "disk" : "network"
                item.coalesced = r.coalesced
                if let out {
                    item.written = try Self.write(r.image, url: url, index: i, to: out, format: outFormat)
                }
            } catch {
                item.error = CLI.describe(error)
            }
            return item
        } each: { i, item in
            items[i] = item
            done += 1
            if item.error != nil { failed += 1 }
            bar.update(done, failed: failed)
            if !bar.enabled && !flags.json { Self.printLine(item) }
        }
        bar.finish()
        await Net.shutdown(manager)
        let elapsed = Net.seconds(since: start)
        if flags.json {
            print(Self.json(items, manager, elapsed))
        } else {
            if bar.enabled { for item in items where item.error != nil { Self.printLine(item) } }
            print(Self.summary(items, manager, elapsed))
        }
        if failed > 0 { throw ExitCode(1) }
    }

    static func printLine(_ item: Item) {
        let url = SafeText.printable(item.url)
        if let error = item.error {
            var stderr = StandardError()
            print("failed  \(url): \(SafeText.printable(error))", to: &stderr)
            return
        }
        var line = "ok      \(url)  \(item.width)x\(item.height)  \(item.cacheType)"
        if item.coalesced { line += " (shared)" }
        if let written = item.written { line += "  -> \(SafeText.printable(written))" }
        print(line)
    }

    /// Writes `image` into `dir` as `<sanitised last segment>-<md5 prefix>.<jpg|png|webp>`, created
    /// inside the folder (never above it, never through a link).
    static func write(_ image: Image, url: URL, index: Int, to dir: String, format: String) throws -> String {
        let tag = String(CacheKeys.md5Hex(url.absoluteString).prefix(8))
        let chosen =
            format == "auto" ? (image.hasAlpha ? ImageFormat.png : .jpeg) : ImageFormat(fileExtension: format) ?? .jpeg
        let ext = chosen.fileExtension
        let name = SafeText.fileStem(for: url) + "-" + tag + "." + ext
        let path = dir + "/" + name
        let encoding = EncodingFormat.standard(chosen, quality: chosen == .webp ? 85 : 90) ?? .jpeg(quality: 90)
        let bytes = try image.encoded(as: encoding)
        let dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dirfd >= 0 else { throw CLIError("cannot write into \(dir): \(String(cString: strerror(errno)))") }
        defer { close(dirfd) }
        try OutputFile.write(in: dirfd, name: name, shownAs: path) { try $0.write(bytes) }
        return path
    }

    /// Each image in the one column it ended in: failed, shared another caller's retrieval
    /// (coalesced), or answered by memory, disk or the network (downloaded). Revalidations are
    /// counted on their own: a revalidated image ends as a disk hit, or a download if it changed.
    struct Columns {
        var downloaded = 0
        var coalesced = 0
        var memoryHits = 0
        var diskHits = 0
        var failed = 0

        init(_ items: [Item]) {
            for item in items {
                if item.error != nil {
                    failed += 1
                } else if item.coalesced {
                    coalesced += 1
                } else if item.cacheType == "memory" {
                    memoryHits += 1
                } else if item.cacheType == "disk" {
                    diskHits += 1
                } else {
                    downloaded += 1
                }
            }
        }
    }

    static func summary(_ items: [Item], _ manager: ImageManager, _ elapsed: Double) -> String {
        let m = manager.statistics
        let d = manager.downloader.statistics
        let c = Columns(items)
        return """
            \(items.count) images in \(Net.format(elapsed, decimals: 2)) s: \
            \(c.downloaded) downloaded (\(Net.bytes(d.bytes))), \(c.coalesced) coalesced, \
            \(c.memoryHits) memory hits, \(c.diskHits) disk hits, \(c.failed) failed\
            \(d.retries == 0 ? "" : "; \(d.retries) retries")\
            \(d.resumes == 0 ? "" : " (\(d.resumes) resumed, \(Net.bytes(d.resumedBytes)) not fetched again)")\
            \(m.revalidations == 0 ? "" : "; \(m.revalidations) revalidated (\(m.notModified) not modified)")\
            \(m.staleServed == 0 ? "" : ", \(m.staleServed) served stale")
            """
    }

    static func json(_ items: [Item], _ manager: ImageManager, _ elapsed: Double) -> String {
        let m = manager.statistics
        let d = manager.downloader.statistics
        let c = Columns(items)
        let rows = items.map { item -> String in
            var fields = ["\"url\": \(JSONText.string(item.url))"]
            if let error = item.error {
                fields.append("\"error\": \(JSONText.string(error))")
            } else {
                fields += [
                    "\"width\": \(item.width)", "\"height\": \(item.height)",
                    "\"from\": \(JSONText.string(item.cacheType))", "\"coalesced\": \(item.coalesced)",
                ]
                if let w = item.written { fields.append("\"file\": \(JSONText.string(w))") }
            }
            return "    {" + fields.joined(separator: ", ") + "}"
        }
        return """
            {
              "images": \(items.count),
              "downloaded": \(c.downloaded),
              "coalesced": \(c.coalesced),
              "memory_hits": \(c.memoryHits),
              "disk_hits": \(c.diskHits),
              "failed": \(c.failed),
              "requests": \(d.requests),
              "retries": \(d.retries),
              "resumes": \(d.resumes),
              "resumed_bytes": \(d.resumedBytes),
              "bytes": \(d.bytes),
              "conditional_requests": \(d.conditionalRequests),
              "not_modified": \(d.notModified),
              "kept_off_disk": \(m.keptOffDisk),
              "revalidations": \(m.revalidations),
              "renewed": \(m.entriesRenewed),
              "stale_served": \(m.staleServed),
              "seconds": \(Net.format(elapsed, decimals: 3)),
              "results": [
            \(rows.joined(separator: ",\n"))
              ]
            }
            """
    }
}
