import Foundation
import MagpieLoopback
import Synchronization

@testable import Magpie

/// An origin with one image per path whose version, caching headers and failures a test changes:
/// it answers `If-None-Match` with 304 while the ETag matches, like nginx does.
final class RevalidatingOrigin: Sendable {
    struct Resource: Sendable {
        var body = NetFixture.jpeg
        var version = 1
        var cacheControl: String? = "max-age=60"
        var sendsETag = true
        /// Conditional requests get this status instead of an answer (a failing origin).
        var conditionalStatus: Int?
        /// Conditional requests get their connection closed without an answer (a dying origin).
        var closesConditional = false
    }

    struct Seen: Sendable {
        var path: String
        var ifNoneMatch: String?
    }

    private let resources = Mutex<[String: Resource]>([:])
    private let seen = Mutex<[Seen]>([])
    /// Holds conditional requests until opened (when set).
    let conditionalGate = Mutex<Gate?>(nil)

    func set(_ path: String, _ change: (inout Resource) -> Void) {
        resources.withLock { r in change(&r[path, default: Resource()]) }
    }

    /// Requests for `path` so far, conditional ones with the ETag they sent.
    func requests(_ path: String) -> [Seen] { seen.withLock { $0.filter { $0.path == path } } }
    func conditionalRequests(_ path: String) -> Int { requests(path).filter { $0.ifNoneMatch != nil }.count }

    var handler: LoopbackServer.Handler {
        { [self] request in
            let inm = request.header("If-None-Match")
            seen.withLock { $0.append(Seen(path: request.path, ifNoneMatch: inm)) }
            guard let r = resources.withLock({ $0[request.path] }) else { return .respond(status: 404) }
            let etag = "\"v\(r.version)\""
            var headers: [(String, String)] = []
            if r.sendsETag { headers.append(("ETag", etag)) }
            if let cc = r.cacheControl { headers.append(("Cache-Control", cc)) }
            if let inm {
                if let gate = conditionalGate.withLock({ $0 }) { await gate.wait() }
                if let status = r.conditionalStatus { return .respond(status: status) }
                if r.closesConditional { return .close }
                if inm == etag { return .respond(status: 304, headers: headers) }
            }
            return .respond(status: 200, headers: headers + [("Content-Type", "image/jpeg")], body: r.body)
        }
    }
}
