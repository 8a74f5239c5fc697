import Foundation
import Magpie
import MagpieTestSupport
import Testing

extension CLITests {
    /// A fetch builds an `Accept` header from the formats that decode; asking whether AVIF does
    /// must not load libavif and the 22 libraries it brings: only an AVIF decode loads it. The
    /// dynamic loader's own log (glibc's `LD_DEBUG=files`) says which libraries a run loaded.
    @Test func aFetchLoadsLibavifOnlyWhenItDecodesAnAVIF() throws {
        let dir = try TemporaryDirectory()
        let png = dir.path("one.png")
        try Data(NetFixture.png).write(to: URL(fileURLWithPath: png))
        let script = #"LD_DEBUG=files exec "$0" fetch "$1" -s 16 --cache-dir "$2" --json"#
        let run = try CLI.runShell(script, [png, dir.path("cache")])
        #expect(run.status == 0, "\(run.stderr.suffix(2000))")
        #expect(run.stderr.contains("file=libpng16.so.16"), "the loader's log is there to read")
        #expect(Self.initialised(run.stderr).contains { $0.contains("libpng16") }, "the loader's log names inits")
        let avif = Self.initialised(run.stderr).filter { $0.contains("libavif") || $0.contains("libdav1d") }
        #expect(avif.isEmpty, "libavif loaded for a PNG: \(avif)")
        // Still advertised: it is there to load (the Accept header asks without loading).
        #expect(ImageFormat.avif.isDecodable == FileManager.default.fileExists(atPath: Self.libavifPath))
    }

    @Test func anAVIFFetchLoadsLibavif() throws {
        let dir = try TemporaryDirectory()
        let avif = FormatFixtures.path("avif-orient6.avif")
        let script = #"LD_DEBUG=files exec "$0" fetch "$1" -s 16 --cache-dir "$2""#
        let run = try CLI.runShell(script, [avif, dir.path("cache")])
        #expect(run.status == 0, "\(run.stderr.suffix(2000))")
        #expect(Self.initialised(run.stderr).contains { $0.contains("libavif") }, "the AVIF decode loaded libavif")
    }

    /// The libraries whose initialisers ran, from `LD_DEBUG=files` (a `file=` line alone is a
    /// look-up, such as the one that asks whether libavif is already loaded).
    static func initialised(_ log: String) -> [Substring] {
        log.split(separator: "\n").compactMap { line in
            line.range(of: "calling init: ").map { line[$0.upperBound...] }
        }
    }

    /// Where Debian's libavif-dev puts the library the SwiftPM build loads.
    static var libavifPath: String {
        ["/usr/lib/x86_64-linux-gnu/libavif.so.15", "/usr/lib/aarch64-linux-gnu/libavif.so.15"].first {
            FileManager.default.fileExists(atPath: $0)
        } ?? "/usr/lib/libavif.so.15"
    }
}
