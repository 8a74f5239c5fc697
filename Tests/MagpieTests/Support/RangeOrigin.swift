import Foundation
import MagpieLoopback
import Synchronization

/// An origin that serves one body and honours `Range: bytes=N-` with `If-Range` as nginx does
/// (a `206` with `Content-Range` when the validator matches, else the whole body as a `200`; a
/// `416` past the end), and whose answers the test can cut, stall or make lie.
final class RangeOrigin: Sendable {
    struct Version: Sendable {
        var body: [UInt8]
        var etag: String? = "\"v1\""
        var lastModified: String? = nil
        var date: String? = nil
        var acceptRanges = true
        /// Answers every request whole, ignoring `Range`.
        var ignoresRange = false
        /// Honours `Range` whatever `If-Range` says (a broken origin or cache).
        var ignoresIfRange = false
        var extraHeaders: [(String, String)] = []
    }

    /// What the origin does to the answer for request number `index` (from 0).
    enum Fault: Sendable {
        /// Sends this many body bytes of the answer, then closes the connection.
        case cut(Int)
        /// Sends this many body bytes, then waits for the gate before closing.
        case stall(Int, Gate)
        /// Answers a range request with `206` and this `Content-Range` text over the bytes from
        /// N, `length` of them.
        case lie(contentRange: String, length: Int)
    }

    struct Seen: Sendable {
        var range: String?
        var ifRange: String?
        var ifNoneMatch: String?
        var status: Int
        var bytesSent: Int
    }

    private let state: Mutex<(version: Version, faults: [Int: Fault], seen: [Seen])>

    init(_ version: Version, faults: [Int: Fault] = [:]) {
        state = Mutex((version, faults, []))
    }

    func change(_ body: (inout Version) -> Void) { state.withLock { body(&$0.version) } }
    var seen: [Seen] { state.withLock { $0.seen } }
    /// Body bytes put on the wire, all answers together.
    var bytesSent: Int { seen.reduce(0) { $0 + $1.bytesSent } }

    func handler(_ request: LoopbackRequest) async -> LoopbackReply {
        let (version, fault) = state.withLock { s in (s.version, s.faults[s.seen.count]) }
        var headers: [(String, String)] = [("Content-Type", "image/jpeg")] + version.extraHeaders
        if let etag = version.etag { headers.append(("ETag", etag)) }
        if let lm = version.lastModified { headers.append(("Last-Modified", lm)) }
        if let date = version.date { headers.append(("Date", date)) }
        if version.acceptRanges { headers.append(("Accept-Ranges", "bytes")) }
        let total = version.body.count
        var status = 200
        var payload = version.body
        if !version.ignoresRange, let (start, end) = Self.range(request.header("Range")),
            version.ignoresIfRange || Self.matches(request.header("If-Range"), version)
        {
            guard start < total else {
                return record(request, .respond(status: 416, headers: [("Content-Range", "bytes */\(total)")]), 416, 0)
            }
            status = 206
            let last = min(end ?? total - 1, total - 1)
            payload = Array(version.body[start...last])
            headers.append(("Content-Range", "bytes \(start)-\(last)/\(total)"))
            if case .lie(let text, let length) = fault {
                headers.removeLast()
                headers.append(("Content-Range", text))
                payload = Array(version.body[start...].prefix(length))
                if payload.count < length { payload += [UInt8](repeating: 0x55, count: length - payload.count) }
            }
        }
        switch fault {
        case .cut(let n):
            let sent = Array(payload.prefix(n))
            return record(
                request, .truncated(status: status, headers: headers, body: sent, declaredLength: payload.count),
                status, sent.count)
        case .stall(let n, let gate):
            let sent = Array(payload.prefix(n))
            return record(
                request,
                .stall(status: status, headers: headers, body: sent, declaredLength: payload.count) {
                    await gate.wait()
                },
                status, sent.count)
        default:
            return record(request, .respond(status: status, headers: headers, body: payload), status, payload.count)
        }
    }

    private func record(_ request: LoopbackRequest, _ reply: LoopbackReply, _ status: Int, _ bytes: Int)
        -> LoopbackReply
    {
        state.withLock {
            $0.seen.append(
                Seen(
                    range: request.header("Range"), ifRange: request.header("If-Range"),
                    ifNoneMatch: request.header("If-None-Match"), status: status, bytesSent: bytes))
        }
        return reply
    }

    /// `bytes=N-` or `bytes=N-M`.
    private static func range(_ value: String?) -> (Int, Int?)? {
        guard let value, value.hasPrefix("bytes=") else { return nil }
        let parts = value.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let start = Int(parts[0]) else { return nil }
        if parts[1].isEmpty { return (start, nil) }
        guard let end = Int(parts[1]), end >= start else { return nil }
        return (start, end)
    }

    /// nginx's rule: no If-Range, or one equal to the strong ETag or to the Last-Modified date.
    private static func matches(_ ifRange: String?, _ version: Version) -> Bool {
        guard let ifRange else { return true }
        if let etag = version.etag, !etag.hasPrefix("W/"), ifRange == etag { return true }
        return version.lastModified == ifRange
    }
}
