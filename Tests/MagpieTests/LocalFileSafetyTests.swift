import Foundation
import Testing

@testable import Magpie

/// What a local user or a dying disk can put where Magpie reads and writes: FIFOs and devices,
/// foreign files, links, other users' folders, sparse files, read-only folders.
@Suite struct LocalFileSafetyTests {
    @Test func fifosAndDevicesFailAtOnce() async throws {
        let dir = try TemporaryDirectory()
        let fifo = dir.path("pipe.png")
        #expect(mkfifo(fifo, 0o600) == 0)
        // Each of these used to block forever in open(2) waiting for a writer.
        #expect(throws: MagpieError.self) { try ImageInfo(contentsOfFile: fifo) }
        #expect(throws: MagpieError.self) { try Image(contentsOfFile: fifo) }
        let downloader = ImageDownloader()
        for url in [URL(fileURLWithPath: fifo), URL(fileURLWithPath: "/dev/zero")] {
            await #expect(throws: ImageDownloadError.self) { try await downloader.download(url) }
        }
        try await downloader.shutdown()
        for arguments in [["info", fifo], ["thumb", fifo, "-s", "32", "-o", dir.path("t.png")]] {
            let result = try CLI.run(arguments)
            #expect(result.status == 1, "\(arguments[0])")
            #expect(result.stderr.contains("not a regular file"), "\(arguments[0]): \(result.stderr)")
        }
        let fetched = try CLI.run(["fetch", fifo, "--cache-dir", dir.path("cache"), "--json"])
        #expect(fetched.status == 1)
    }
}
