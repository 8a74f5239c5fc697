import Foundation
import MagpieTestSupport
import Testing

@testable import Magpie

extension ResumableBodyTests {
    /// Against Debian's nginx, by its ETag and, with `etag off`, by its Last-Modified date: the
    /// request a resumed download sends gets the rest as a `206` the rules join into the file,
    /// and once the file has changed, the whole new file as a `200`.
    @Test(.enabled(if: NginxServer.isAvailable), arguments: ["", "etag off;"])
    func nginxContinuesTheSameFileOnly(directives: String) async throws {
        let nginx = try await NginxServer(serverDirectives: directives)
        defer { nginx.stop() }
        let file = nginx.www + "/photo.jpg"
        let original = DownloaderTests.body(100_000, seed: 4)
        try Data(original).write(to: URL(fileURLWithPath: file))
        // A modification time a minute ago: a date validator is then strong.
        var times = [timespec(tv_sec: time(nil) - 60, tv_nsec: 0), timespec(tv_sec: time(nil) - 60, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, file, &times, 0) == 0)
        let http = HTTPDataLoader()
        let whole = try await http.load(DataRequest(url: nginx.url("/photo.jpg"))) { _, _ in }
        #expect(whole.body == original)
        var cut = whole
        cut.body = Array(original.prefix(30_000))
        let kept = try #require(ResumableBody(cut, maxBodySize: 1 << 20), "nginx's answer can be resumed")
        #expect(kept.validatorIsTag == directives.isEmpty)
        let part = try await http.load(DataRequest(url: nginx.url("/photo.jpg"), headers: kept.rangeFields)) { _, _ in }
        #expect(part.statusCode == 206)
        guard case .completed(let joined) = kept.continuation(with: part, maxBodySize: 1 << 20) else {
            Issue.record("nginx's continuation was not joined: \(part.statusCode) \(part.headers)")
            return
        }
        #expect(joined.body == original)
        // The file changes: nginx sends it whole.
        let changed = DownloaderTests.body(100_000, seed: 5)
        try Data(changed).write(to: URL(fileURLWithPath: file))
        let after = try await http.load(DataRequest(url: nginx.url("/photo.jpg"), headers: kept.rangeFields)) { _, _ in
        }
        #expect(kept.continuation(with: after, maxBodySize: 1 << 20) == nil)
        #expect(after.statusCode == 200 && after.body == changed)
        try await http.shutdown()
    }
}
