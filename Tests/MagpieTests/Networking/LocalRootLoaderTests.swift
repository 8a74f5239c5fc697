import Foundation
import MagpieTestSupport
import Testing

@testable import Magpie

/// `local://` sources: files beneath a root and nothing else, whatever the path or the links say.
@Suite struct LocalRootLoaderTests {
    @Test func onlyRegularFilesBeneathTheRootAreRead() async throws {
        let dir = try TemporaryDirectory()
        let root = dir.path("root")
        try FileManager.default.createDirectory(atPath: root + "/sub", withIntermediateDirectories: true)
        try Data(NetFixture.png).write(to: URL(fileURLWithPath: root + "/a.png"))
        try Data(NetFixture.jpeg).write(to: URL(fileURLWithPath: root + "/sub/b c.jpg"))
        try Data("secret".utf8).write(to: URL(fileURLWithPath: dir.path("outside.txt")))
        try FileManager.default.createSymbolicLink(atPath: root + "/in-link.png", withDestinationPath: "a.png")
        try FileManager.default.createSymbolicLink(
            atPath: root + "/out-link", withDestinationPath: dir.path("outside.txt"))
        try FileManager.default.createSymbolicLink(atPath: root + "/up", withDestinationPath: "..")
        #expect(mkfifo(root + "/fifo", 0o600) == 0)
        let loader = LocalRootLoader(root: root)
        func get(_ path: String, limit: Int = 1 << 20, headers: [HTTPHeaderField] = []) async throws -> DataResponse {
            let url = try #require(URL(string: "local://" + path))
            return try await loader.load(DataRequest(url: url, headers: headers, maxBodySize: limit)) { _, _ in }
        }
        let a = try await get("/a.png")
        #expect(a.statusCode == 200 && a.body == NetFixture.png)
        #expect(try await get("/sub/b%20c.jpg").body == NetFixture.jpeg)
        // Refused with a 404 and no bytes: escapes, links (even one that stays inside), hidden
        // separators, NUL, a FIFO (without blocking), a folder, a host.
        for path in [
            "/../outside.txt", "/sub/../../outside.txt", "/%2e%2e/outside.txt", "/sub%2f..%2f..%2foutside.txt",
            "/out-link", "/in-link.png", "/up/outside.txt", "/a.png%00.jpg", "/fifo", "/sub", "//a.png", "/./a.png",
            "/", "/missing.png",
        ] {
            let r = try await get(path)
            #expect(r.statusCode == 404 && r.body.isEmpty, "\(path)")
        }
        #expect(
            try await loader.load(DataRequest(url: URL(string: "local://host/a.png")!)) { _, _ in }.statusCode == 404)
        await #expect(throws: ImageDownloadError.self) { try await get("/a.png", limit: 10) }
        // Validators from size and modification time; a matching If-None-Match is a 304.
        let etag = try #require(a.headers.value(for: "ETag"))
        #expect(HTTPDate.parse(try #require(a.headers.value(for: "Last-Modified"))) != nil)
        #expect(try await get("/a.png", headers: [HTTPHeaderField("If-None-Match", etag)]).statusCode == 304)
        try Data(NetFixture.png + [0]).write(to: URL(fileURLWithPath: root + "/a.png"))
        #expect(try await get("/a.png").headers.value(for: "ETag") != etag, "a changed file is a new source")
        // Through a downloader, as any transport.
        let downloader = ImageDownloader(transports: ["local": loader])
        let fetched = try await downloader.download(try #require(URL(string: "local:///sub/b%20c.jpg")))
        #expect(fetched.data == NetFixture.jpeg && fetched.format == .jpeg)
        try await downloader.shutdown()
    }

    @Test func httpDatesAreIMFFixdates() {
        #expect(HTTPDate.format(seconds: 784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.format(seconds: 0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(
            HTTPDate.parse(HTTPDate.format(seconds: 1_700_000_000))
                == Date(timeIntervalSince1970: 1_700_000_000))
    }
}
