import Foundation
import Magpie
import MagpieLoopback
import MagpieTestSupport
import Synchronization
import Testing

@Suite struct CLITests {
    func fixtures(_ dir: TemporaryDirectory) throws -> (png: String, jpeg: String, bad: String) {
        let image = try Image(width: 300, height: 200, rgba: Fixture.gradient(width: 300, height: 200))
        let png = dir.path("a \"quoted\" name.png")
        let jpeg = dir.path("b.jpg")
        let bad = dir.path("c.png")
        try Data(try image.encoded(as: .png())).write(to: URL(fileURLWithPath: png))
        try Data(try image.encoded(as: .jpeg())).write(to: URL(fileURLWithPath: jpeg))
        try Data(Array(try image.encoded(as: .png()).prefix(20))).write(to: URL(fileURLWithPath: bad))
        return (png, jpeg, bad)
    }

    @Test func infoJSONPrintsOneObjectPerFileAndFailsForBadOnes() throws {
        let dir = try TemporaryDirectory()
        let f = try fixtures(dir)
        let result = try CLI.run(["info", "--json", f.png, f.jpeg, f.bad])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        let objects = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects[0]?["path"] as? String == f.png)
        #expect(objects[0]?["format"] as? String == "png")
        #expect(objects[0]?["width"] as? Int == 300 && objects[0]?["height"] as? Int == 200)
        #expect(objects[0]?["frames"] as? Int == 1 && objects[0]?["orientation"] as? Int == 1)
        #expect(objects[1]?["format"] as? String == "jpeg")
        let error = objects[2]?["error"] as? [String: Any]
        #expect(error?["code"] as? Int == Int(CoreFailure.Code.truncated.rawValue))
        #expect((error?["message"] as? String)?.isEmpty == false)
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains(f.bad))
        let ok = try CLI.run(["info", f.jpeg])
        #expect(ok.status == 0 && ok.stdout.contains("jpeg 300x200"))
    }

    @Test func thumbWritesTheBoxedSizeInTheFormatOfTheExtension() throws {
        let dir = try TemporaryDirectory()
        let f = try fixtures(dir)
        for (out, size, fill, want) in [
            ("t.png", "64", false, (64, 43)), ("t.jpg", "50x50", true, (50, 50)), ("t.jpeg", "90x30", false, (45, 30)),
            ("t.webp", "64", false, (64, 43)),
        ] {
            let result = try CLI.run(["thumb", f.jpeg, "-s", size, "-o", dir.path(out)] + (fill ? ["--fill"] : []))
            #expect(result.status == 0, "\(result.stderr)")
            let info = try ImageInfo(contentsOfFile: dir.path(out))
            #expect(info.format == (out.hasSuffix("png") ? .png : out.hasSuffix("webp") ? .webp : .jpeg))
            #expect(info.width == want.0 && info.height == want.1, "\(out)")
        }
        let bad = try CLI.run(["thumb", f.bad, "-s", "64", "-o", dir.path("never.png")])
        #expect(bad.status == 1 && bad.stderr.hasPrefix("magpie: \(f.bad): "))
        #expect(!FileManager.default.fileExists(atPath: dir.path("never.png")))
        let noDirectory = try CLI.run(["thumb", f.jpeg, "-s", "64", "-o", dir.path("missing/t.png")])
        #expect(noDirectory.status == 1 && noDirectory.stderr.contains("cannot write"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "temporary files left behind: \(leftovers)")
        let unknownExtension = try CLI.run(["thumb", f.jpeg, "-s", "64", "-o", dir.path("t.heic")])
        #expect(unknownExtension.status == 1 && unknownExtension.stderr.contains(".webp"))
        #expect(try CLI.run(["thumb", f.jpeg, "-s", "0"]).status != 0)
    }

    @Test func convertKeepsFullSizeAndPicksGIFFrames() throws {
        let dir = try TemporaryDirectory()
        let f = try fixtures(dir)
        #expect(try CLI.run(["convert", f.png, "-o", dir.path("c.jpg")]).status == 0)
        let info = try ImageInfo(contentsOfFile: dir.path("c.jpg"))
        #expect(info.width == 300 && info.height == 200)
        let ppm = try CLI.run(["convert", f.png, "-o", dir.path("c.ppm")])
        #expect(ppm.status == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: dir.path("c.ppm")))
        #expect(bytes.count == "P6\n300 200\n255\n".utf8.count + 300 * 200 * 3)
        let outOfRange = try CLI.run(["convert", f.png, "-o", dir.path("d.png"), "--frame", "3"])
        #expect(outOfRange.status == 1 && outOfRange.stderr.contains("frame"))
    }
}

@Suite struct CLICacheTests {
    @Test func statsLocateCleanAndClearWorkOnACacheDirectory() throws {
        let dir = try TemporaryDirectory()
        let cacheDir = dir.path("cache")
        do {
            let cache = try DiskCache(config: .init(directory: cacheDir, sweepInterval: nil))
            try cache.store(
                [UInt8](repeating: 1, count: 1000), forKey: "https://example.com/a.jpg", metadata: .init(etag: "\"e1\"")
            )
            try cache.store(
                [2], forKey: "https://example.com/old.jpg", expiration: .date(Date(timeIntervalSinceNow: -1)))
        }
        let stats = try CLI.run(["cache", "stats", "--cache-dir", cacheDir])
        #expect(
            stats.status == 0 && stats.stdout.contains("entries: 2") && stats.stdout.contains("directory: \(cacheDir)"))
        #expect(stats.stdout.contains("entries: 2 (2 rows of the index, 0 files)"), "\(stats.stdout)")
        #expect(stats.stdout.contains("bytes on disk: ") && stats.stdout.contains("(the index "), "\(stats.stdout)")
        let found = try CLI.run(["cache", "locate", "https://example.com/a.jpg", "--cache-dir", cacheDir])
        #expect(found.status == 0)
        #expect(found.stdout.contains("file name: \(CacheKeys.md5Hex("https://example.com/a.jpg"))"))
        #expect(found.stdout.contains("cached: yes") && found.stdout.contains("etag: \"e1\""))
        #expect(found.stdout.contains("stored: a row of \(cacheDir)/.magpie-index.sqlite"), "\(found.stdout)")
        let missing = try CLI.run(["cache", "locate", "https://example.com/none.jpg", "--cache-dir", cacheDir])
        #expect(missing.status == 2 && missing.stdout.contains("cached: no"))
        let clean = try CLI.run(["cache", "clean", "--cache-dir", cacheDir])
        #expect(clean.status == 0 && clean.stdout.contains("1 entries"))
        let clear = try CLI.run(["cache", "clear", "--cache-dir", cacheDir])
        #expect(clear.status == 0 && clear.stdout.contains("removed 1 entries"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: cacheDir).filter { !$0.hasPrefix(".magpie-") }.isEmpty)
        try Data().write(to: URL(fileURLWithPath: dir.path("plain-file")))
        let bad = try CLI.run(["cache", "stats", "--cache-dir", dir.path("plain-file")])
        #expect(bad.status == 1 && bad.stderr.contains("not a directory"))
    }
}

@Suite struct CLINetworkTests {
    @Test func fetchReportsDownloadsHitsAndWritesFiles() async throws {
        try await withServer(imageServer()) { server in
            let dir = try TemporaryDirectory()
            let a = server.baseURL + "/img/a.jpg"
            let b = server.baseURL + "/img/b.jpg"
            let args = [
                "fetch", a, b, a, "-s", "32", "--cache-dir", dir.path("cache"), "--out", dir.path("out"), "--json",
            ]
            let cold = try await CLI.runAsync(args)
            #expect(cold.status == 0, "\(cold.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(cold.stdout.utf8)) as? [String: Any])
            #expect(json["images"] as? Int == 3 && json["downloaded"] as? Int == 2 && json["failed"] as? Int == 0)
            #expect(json["conditional_requests"] as? Int == 0 && json["kept_off_disk"] as? Int == 0)
            #expect(server.requestCount("/img/a.jpg") == 1)
            let files = try FileManager.default.contentsOfDirectory(atPath: dir.path("out"))
            #expect(files.count == 2 && files.allSatisfy { $0.hasSuffix(".jpg") })
            let thumb = try Image(contentsOfFile: dir.path("out") + "/" + files[0])
            #expect(max(thumb.width, thumb.height) == 32)
            // A second run is served from the disk cache.
            let warm = try await CLI.runAsync(["fetch", a, b, "-s", "32", "--cache-dir", dir.path("cache")])
            #expect(warm.status == 0 && warm.stdout.contains("0 downloaded") && warm.stdout.contains("2 disk hits"))
            #expect(server.totalRequests == 2)
            // --out-format webp writes WebP files, from the cache.
            let webp = try await CLI.runAsync([
                "fetch", a, "-s", "32", "--cache-dir", dir.path("cache"), "--out", dir.path("webp"), "--out-format",
                "webp",
            ])
            #expect(webp.status == 0, "\(webp.stderr)")
            let written = try FileManager.default.contentsOfDirectory(atPath: dir.path("webp"))
            #expect(written.count == 1 && written[0].hasSuffix(".webp"))
            #expect(try ImageInfo(contentsOfFile: dir.path("webp") + "/" + written[0]).format == .webp)
            let badFormat = try await CLI.runAsync(["fetch", a, "--out-format", "bmp"])
            #expect(badFormat.status != 0 && badFormat.stderr.contains("--out-format"))
            // Failures are listed and set the exit status.
            let bad = try await CLI.runAsync(["fetch", server.baseURL + "/nothing", "--cache-dir", dir.path("cache")])
            #expect(bad.status == 1 && bad.stderr.contains("HTTP status 404"))
            let usage = try await CLI.runAsync(["fetch", "ftp://example.com/x.png"])
            #expect(usage.status != 0 && usage.stderr.contains("not an http, https, file, s3 or local URL"))
        }
    }

    @Test func prefetchWarmsTheDiskCacheFromAList() async throws {
        try await withServer(imageServer()) { server in
            let dir = try TemporaryDirectory()
            let list = ["# warm these", server.baseURL + "/img/1.jpg", "", server.baseURL + "/png  # with alpha"]
            try list.joined(separator: "\n").write(toFile: dir.path("urls.txt"), atomically: true, encoding: .utf8)
            let r = try await CLI.runAsync(["prefetch", "-i", dir.path("urls.txt"), "--cache-dir", dir.path("cache")])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("2 URLs") && r.stdout.contains("2 stored"))
            let located = try await CLI.runAsync([
                "cache", "locate", server.baseURL + "/png", "--cache-dir", dir.path("cache"),
            ])
            #expect(located.status == 0)
            let again = try await CLI.runAsync([
                "prefetch", "-i", dir.path("urls.txt"), "--cache-dir", dir.path("cache"),
            ])
            #expect(again.stdout.contains("2 already cached") && server.totalRequests == 2)
        }
    }

    /// `--retries` (default 2) as curl's `--retry`: transient failures (503, a reset connection)
    /// are tried again with back-off, a `Retry-After` longer than `--retry-max-wait` fails at once,
    /// and the JSON summary counts the retries.
    @Test func fetchAndPrefetchRetryTransientFailures() async throws {
        let seen = Mutex<[String: Int]>([:])
        let handler: LoopbackServer.Handler = { request in
            let n = seen.withLock { counts -> Int in
                counts[request.path, default: 0] += 1
                return counts[request.path]!
            }
            switch (request.path, n) {
            case ("/flaky.jpg", 1): return .respond(status: 503)
            case ("/flaky.jpg", 2): return .respond(status: 503, headers: [("Retry-After", "0")])
            case ("/reset.jpg", 1), ("/warm.jpg", 1): return .close
            case ("/busy.jpg", _): return .respond(status: 503, headers: [("Retry-After", "3600")])
            case ("/down.jpg", _), ("/gone.jpg", _):
                return .respond(status: n == 1 && request.path == "/gone.jpg" ? 404 : 503)
            default: return .ok(NetFixture.jpeg, contentType: "image/jpeg")
            }
        }
        try await withServer(handler) { server in
            let dir = try TemporaryDirectory()
            let cache = ["--cache-dir", dir.path("cache"), "--retry-delay", "1"]
            let ok = try await CLI.runAsync(
                ["fetch", server.baseURL + "/flaky.jpg", server.baseURL + "/reset.jpg", "--json"] + cache)
            #expect(ok.status == 0, "\(ok.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(ok.stdout.utf8)) as? [String: Any])
            #expect(json["failed"] as? Int == 0 && json["retries"] as? Int == 3, "\(ok.stdout)")
            #expect(server.requestCount("/flaky.jpg") == 3 && server.requestCount("/reset.jpg") == 2)

            // Gives up after 1 + 2 attempts; never retries a 404 or a Retry-After it will not wait for.
            let failing = try await CLI.runAsync(
                [
                    "fetch", server.baseURL + "/down.jpg", server.baseURL + "/gone.jpg", server.baseURL + "/busy.jpg",
                ] + cache)
            #expect(failing.status == 1 && failing.stdout.contains("2 retries"), "\(failing.stdout)")
            #expect(server.requestCount("/down.jpg") == 3 && server.requestCount("/gone.jpg") == 1)
            #expect(server.requestCount("/busy.jpg") == 1)
            let none = try await CLI.runAsync(["fetch", server.baseURL + "/down.jpg", "--retries", "0"] + cache)
            #expect(none.status == 1 && server.requestCount("/down.jpg") == 4)

            try (server.baseURL + "/warm.jpg\n").write(toFile: dir.path("urls.txt"), atomically: true, encoding: .utf8)
            let warm = try await CLI.runAsync(["prefetch", "-i", dir.path("urls.txt"), "--json"] + cache)
            #expect(warm.status == 0 && warm.stdout.contains("\"retries\": 1"), "\(warm.stdout) \(warm.stderr)")
        }
    }

    /// The loopback server answers while every cooperative thread of the test process is
    /// blocked (here: the test's own, waiting for the CLI, and one holder per other core); its
    /// handlers ran on that pool before, so the CLI's request waited out its timeout.
    @Test func theLoopbackServerAnswersWhileThePoolIsBlocked() async throws {
        try await withServer(imageServer()) { server in
            let dir = try TemporaryDirectory()
            let others = max(0, ProcessInfo.processInfo.activeProcessorCount - 1)
            let started = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let holders = (0..<others).map { _ in
                Task.detached {
                    started.signal()
                    release.wait()
                }
            }
            for _ in 0..<others { started.wait() }
            let r = try CLI.run([
                "fetch", server.baseURL + "/img/blocked.jpg", "--retries", "0", "--cache-dir", dir.path("c"),
            ])
            for _ in 0..<others { release.signal() }
            for holder in holders { await holder.value }
            #expect(r.status == 0 && server.requestCount("/img/blocked.jpg") == 1, "\(r.stderr)")
        }
    }

    @Test func demoRunsOffline() async throws {
        let r = try await CLI.runAsync(["demo", "--images", "4", "--requests", "60", "-j", "8"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        let cold = try #require(lines.first { $0.hasPrefix("cold ") })
        let cells = cold.split(separator: " ")
        // pass, requests, origin: 4 images and the two failing URLs reach the origin once each.
        #expect(cells[1] == "60" && cells[2] == "6", "\(cold)")
        let memory = try #require(lines.first { $0.hasPrefix("warm memory") })
        #expect(memory.split(separator: " ")[3] == "0", "no origin requests when warm: \(memory)")
    }
}
