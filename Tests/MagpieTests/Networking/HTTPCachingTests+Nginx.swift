import Foundation
import MagpieTestSupport
import Testing

@testable import Magpie

extension HTTPCachingTests {
    /// Against Debian's nginx and its own ETag and Last-Modified handling: a conditional request
    /// with what the first response gave is a 304 without a body, by ETag or by date alone; once
    /// the file changes it is a 200 with new validators.
    @Test(.enabled(if: NginxServer.isAvailable)) func nginxAnswersConditionalRequests() async throws {
        let nginx = try await NginxServer()
        defer { nginx.stop() }
        let file = nginx.www + "/photo.jpg"
        try Data(NetFixture.jpeg).write(to: URL(fileURLWithPath: file))
        // A fixed modification time a minute ago, so the later change is a different second.
        var times = [timespec(tv_sec: time(nil) - 60, tv_nsec: 0), timespec(tv_sec: time(nil) - 60, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, file, &times, 0) == 0)
        let downloader = ImageDownloader(config: .init(), clock: ManualClock(), sleep: { _ in })
        let url = nginx.url("/photo.jpg")
        let first = try await downloader.download(url)
        #expect(first.data == NetFixture.jpeg && !first.notModified)
        let etag = try #require(first.validators.etag)
        let lastModified = try #require(first.validators.lastModified)
        #expect(etag.hasPrefix("\"") && HTTPDate.parse(lastModified) != nil, "nginx's own validators: \(etag)")
        let byETag = try await downloader.download(url, options: .init(revalidating: first.validators))
        #expect(byETag.notModified && byETag.data.isEmpty && byETag.validators.etag == etag)
        let byDate = try await downloader.download(
            url, options: .init(revalidating: ResponseValidators(lastModified: lastModified)))
        #expect(byDate.notModified)
        // The file changes (size and time): nginx's ETag follows, and the answer is a 200.
        try Data(NetFixture.jpeg + [0]).write(to: URL(fileURLWithPath: file))
        let changed = try await downloader.download(url, options: .init(revalidating: first.validators))
        #expect(!changed.notModified && changed.data.count == NetFixture.jpeg.count + 1)
        #expect(changed.validators.etag != etag)
        #expect(downloader.statistics.notModified == 2 && downloader.statistics.conditionalRequests == 3)
        try await downloader.shutdown()
    }
}
