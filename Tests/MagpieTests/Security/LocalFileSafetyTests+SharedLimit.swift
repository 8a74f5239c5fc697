import Foundation
import MagpieTestSupport
import Testing

@testable import Magpie

/// What a local user or a dying disk can put where Magpie reads and writes: FIFOs and devices,
/// foreign files, links, other users' folders, sparse files, read-only folders.

/// Several processes writing to one cache folder keep its size limit together.
extension LocalFileSafetyTests {
    /// Four `prefetch` processes sharing a folder with a 3 MB limit used to leave 8 MB: each
    /// counted only its own writes.
    @Test func theDiskLimitHoldsAcrossProcesses() async throws {
        let dir = try TemporaryDirectory()
        // 160 distinct noisy JPEGs of about 100 KB (noise does not compress; xorshift is cheap).
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let bodies: [[UInt8]] = try (0..<160).map { _ in
            var rgba = [UInt8](repeating: 255, count: 200 * 200 * 4)
            for i in stride(from: 0, to: rgba.count, by: 4) {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                rgba[i] = UInt8(truncatingIfNeeded: state)
                rgba[i + 1] = UInt8(truncatingIfNeeded: state >> 8)
                rgba[i + 2] = UInt8(truncatingIfNeeded: state >> 16)
            }
            return try Image(width: 200, height: 200, rgba: rgba).encoded(as: .jpeg(quality: 95))
        }
        let largest = bodies.map(\.count).max() ?? 0
        try await withServer({ request in
            let n = Int(request.path.dropFirst(5).prefix { $0.isNumber }) ?? -1
            return bodies.indices.contains(n) ? .ok(bodies[n], contentType: "image/jpeg") : .respond(status: 404)
        }) { server in
            let folder = dir.path("cache")
            let limit = 3_000_000
            var lists: [String] = []
            for p in 0..<4 {
                let list = dir.path("urls-\(p).txt")
                let urls = (0..<40).map { server.baseURL + "/img/\(p * 40 + $0).jpg" }
                try Data(urls.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: list))
                lists.append(list)
            }
            let processes = try lists.map { list -> Process in
                let process = Process()
                process.executableURL = CLI.binary
                process.arguments = [
                    "prefetch", "-i", list, "--cache-dir", folder, "--disk-limit", String(limit), "-j", "4",
                ]
                process.standardOutput = FileHandle.nullDevice
                _ = FileManager.default.createFile(atPath: list + ".err", contents: nil)
                process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: list + ".err"))
                try process.run()
                return process
            }
            // Waited for off the cooperative pool: the loopback server's handlers need it.
            for process in processes {
                await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                    DispatchQueue.global().async {
                        process.waitUntilExit()
                        done.resume()
                    }
                }
            }
            for (process, list) in zip(processes, lists) {
                let errors = (try? String(contentsOfFile: list + ".err", encoding: .utf8)) ?? ""
                #expect(process.terminationStatus == 0, "\(errors)")
            }
            var bytes = 0
            var entries = 0
            for name in try FileManager.default.contentsOfDirectory(atPath: folder) where !name.hasPrefix(".") {
                let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/" + name)
                bytes += (attributes[.size] as? Int) ?? 0
                entries += 1
            }
            // Each write checks the shared total before it lands: the 16 writes that can be in
            // flight at once (4 processes, -j 4) may each land after another's check (about
            // 4.7 MB here, against the 8 MB left when each process counted only its own).
            // (The shared total once undercounted when a trim's removals raced another
            // process's rescan; see DiskCacheTests+SharedTotal.)
            #expect(bytes <= limit + 16 * (largest + 4096), "\(bytes) bytes in \(entries) entries")
            #expect(entries > 0)
            // The next process sees the same total.
            let reopened = try DiskCache(config: .init(directory: folder, sizeLimit: limit, sweepInterval: nil))
            #expect(reopened.totalSize() == bytes)
        }
    }
}
