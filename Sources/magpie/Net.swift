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

enum Net {
    /// Parses command-line URLs: absolute http, https, file, s3 or local URLs, or paths of local files.
    static func parse(_ text: String) throws -> URL {
        if text.hasPrefix("/") { return URL(fileURLWithPath: text) }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            ["http", "https", "file", "s3", "local"].contains(scheme)
        else { throw CLIError("not an http, https, file, s3 or local URL: \(text)") }
        return url
    }

    /// Runs `body` for every item with at most `limit` running at once, in order of start.
    static func forEach<T: Sendable, R: Sendable>(
        _ items: [T], limit: Int, _ body: @escaping @Sendable (Int, T) async -> R, each: (Int, R) -> Void
    ) async {
        await BoundedConcurrency.forEach(count: items.count, limit: limit, { i in await body(i, items[i]) }, each: each)
    }

    static func shutdown(_ manager: ImageManager) async {
        await manager.waitForBackgroundRevalidations()
        await manager.cache.shutdown()
        try? await manager.downloader.shutdown()
    }

    static var stderrIsTerminal: Bool { isatty(2) == 1 }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let d = ContinuousClock.now - start
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    static func format(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        var text = String(rounded)
        if let dot = text.firstIndex(of: ".") {
            let have = text.distance(from: dot, to: text.endIndex) - 1
            if have < decimals { text += String(repeating: "0", count: decimals - have) }
        } else if decimals > 0 {
            text += "." + String(repeating: "0", count: decimals)
        }
        return text
    }

    static func bytes(_ n: Int) -> String {
        if n >= 1 << 20 { return format(Double(n) / Double(1 << 20), decimals: 1) + " MiB" }
        if n >= 1 << 10 { return format(Double(n) / Double(1 << 10), decimals: 1) + " KiB" }
        return "\(n) B"
    }
}

/// A one-line progress bar on a terminal's stderr.
struct ProgressBar {
    let total: Int
    let enabled: Bool

    func update(_ done: Int, failed: Int) {
        guard enabled, total > 0 else { return }
        let width = 30
        let filled = done * width / total
        var line = "\r[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
        line += "\(done)/\(total)"
        if failed > 0 { line += " (\(failed) failed)" }
        var stderr = StandardError()
        print(line, terminator: "", to: &stderr)
    }

    func finish() {
        guard enabled else { return }
        var stderr = StandardError()
        print("\r" + String(repeating: " ", count: 60) + "\r", terminator: "", to: &stderr)
    }
}
