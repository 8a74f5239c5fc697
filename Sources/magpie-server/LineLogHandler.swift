import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Log lines on standard error in one of the ``LogFormat``s (swift-log's `StreamLogHandler`
/// format by default), at a per-request cost:
/// metadata is kept as given and formatted only when a line is written (`StreamLogHandler`
/// formats all of it whenever it changes, and Hummingbird sets a request ID on every request's
/// logger), and the timestamp (UTC) is formatted once a second. One `write` per line, so whole
/// lines never interleave.
struct LineLogHandler: LogHandler {
    let label: String
    let format: LogFormat
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    init(label: String, format: LogFormat = LogFormat.table["pretty"]!) { (self.label, self.format) = (label, format) }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var all = metadata
        if let extra = event.metadata { all.merge(extra) { $1 } }
        let fields = all.sorted { $0.key < $1.key }.map { ($0.key, "\($0.value)") }
        // The stamp under the lock, the line formatted outside it, the write under it again (so
        // whole lines never interleave, and no thread waits while another formats).
        let stamp = Self.output.withLock { clock in
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            if now.tv_sec != clock.second {
                clock.second = now.tv_sec
                clock.stamp = Self.format(now.tv_sec)
            }
            return clock.stamp
        }
        var line = format.line(stamp, event.level, label, fields, event.source, "\(event.message)")
        Self.output.withLock { _ in
            line.withUTF8 { bytes in
                var written = 0
                while written < bytes.count {
                    let n = write(2, bytes.baseAddress! + written, bytes.count - written)
                    guard n > 0 else { break }
                    written += n
                }
            }
        }
    }

    private struct Clock {
        var second = -1
        var stamp = ""
    }
    private static let output = Mutex(Clock())

    /// `2026-11-26T20:07:55+0000`
    static func format(_ seconds: Int) -> String {
        var t = time_t(seconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let n = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S+0000", &parts)
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
