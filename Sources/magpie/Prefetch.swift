import ArgumentParser
import Magpie

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

struct Prefetch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prefetch",
        abstract: "Warm the disk cache from a list of URLs (one per line; '#' starts a comment).",
        discussion: """
            Without --size the downloaded bytes are stored as they are, without decoding: later \
            retrievals of any size start from them. With --size the thumbnails are made and stored.
            """)

    @Option(name: .shortAndLong, help: "File of URLs, or - for standard input.") var input: String
    @OptionGroup var flags: PipelineFlags

    func run() async throws {
        let lines = try Self.readLines(input)
        var urls: [URL] = []
        for line in lines {
            let text = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let trimmed = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).joined()
            if trimmed.isEmpty { continue }
            urls.append(try Net.parse(trimmed))
        }
        let manager = try flags.makeManager()
        let options = try flags.options()
        let start = ContinuousClock.now
        let bar = ProgressBar(total: urls.count, enabled: Net.stderrIsTerminal && !flags.json)
        let prefetcher = ImagePrefetcher(
            urls: urls, manager: manager, options: options, maxConcurrentDownloads: flags.jobs,
            diskOnly: flags.size == nil)
        let summary = await prefetcher.start { progress in bar.update(progress.finished, failed: progress.failed) }
        bar.finish()
        await Net.shutdown(manager)
        let elapsed = Net.seconds(since: start)
        var stderr = StandardError()
        for (source, error) in summary.failed {
            print(
                "failed  \(SafeText.printable(source.description)): \(SafeText.printable(CLI.describe(error)))",
                to: &stderr)
        }
        let d = manager.downloader.statistics
        let m = manager.statistics
        let retries = d.retries
        if flags.json {
            print(
                """
                {"urls": \(urls.count), "completed": \(summary.completed.count), \
                "skipped": \(summary.skipped.count), "revalidated": \(summary.revalidated.count), \
                "failed": \(summary.failed.count), \
                "retries": \(retries), "resumes": \(d.resumes), "resumed_bytes": \(d.resumedBytes), \
                "bytes": \(summary.bytes), "received": \(d.bytes), \
                "conditional_requests": \(d.conditionalRequests), "not_modified": \(d.notModified), \
                "renewed": \(m.entriesRenewed), "stale_served": \(m.staleServed), \
                "seconds": \(Net.format(elapsed, decimals: 3))}
                """)
        } else {
            print(
                "\(urls.count) URLs in \(Net.format(elapsed, decimals: 2)) s: \(summary.completed.count) stored "
                    + "(\(Net.bytes(summary.bytes))), \(summary.skipped.count) already cached, "
                    + "\(summary.revalidated.count) revalidated, \(summary.failed.count) failed"
                    + (retries == 0 ? "" : "; \(retries) retries")
                    + (d.resumes == 0
                        ? "" : " (\(d.resumes) resumed, \(Net.bytes(d.resumedBytes)) not fetched again)")
                    + (d.conditionalRequests == 0
                        ? "" : "; \(d.notModified) of \(d.conditionalRequests) conditional requests not modified"))
        }
        if !summary.failed.isEmpty { throw ExitCode(1) }
    }

    static func readLines(_ path: String) throws -> [String] {
        var bytes: [UInt8] = []
        let fd = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw CLI.fail(path, CLIError(String(cString: strerror(errno)))) }
        defer { if fd != 0 { close(fd) } }
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw CLI.fail(path, CLIError(String(cString: strerror(errno)))) }
            if n == 0 { break }
            bytes += chunk[0..<n]
            if bytes.count > 64 << 20 { throw CLI.fail(path, CLIError("URL list larger than 64 MiB")) }
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
