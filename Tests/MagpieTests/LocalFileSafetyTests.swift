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

    /// Outputs respect the umask and keep the mode of the file they replace.
    @Test func outputModesFollowUmaskAndTheReplacedFile() throws {
        let dir = try TemporaryDirectory()
        let input = dir.path("in.png")
        try Data(NetFixture.png).write(to: URL(fileURLWithPath: input))
        func thumb(_ out: String, umask: String) throws -> Int {
            let shell = try CLI.runShell("umask \(umask); exec \"$0\" thumb \"$1\" -s 16 -o \"$2\"", [input, out])
            #expect(shell.status == 0, "\(shell.stderr)")
            let attributes = try FileManager.default.attributesOfItem(atPath: out)
            return (attributes[.posixPermissions] as? Int) ?? -1
        }
        #expect(try thumb(dir.path("private.png"), umask: "077") == 0o600)
        #expect(try thumb(dir.path("shared.png"), umask: "022") == 0o644)
        // Replacing a 0600 file under a permissive umask keeps it 0600.
        #expect(try thumb(dir.path("private.png"), umask: "000") == 0o600)
    }
}
