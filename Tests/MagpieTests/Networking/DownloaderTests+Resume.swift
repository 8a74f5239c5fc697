import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie

/// A cut body is continued with `Range` and `If-Range` where the response allows it, and started
/// over whenever the answer does not continue exactly the version cut (a real HTTP origin on
/// loopback that honours ranges as nginx does, cut where the test says).
extension DownloaderTests {
    /// A JPEG followed by bytes that differ from place to place, so a splice at the wrong offset
    /// or of another version cannot go unseen.
    static func body(_ size: Int, seed: UInt32) -> [UInt8] {
        var x = seed
        var out = NetFixture.jpeg
        while out.count < size {
            x = x &* 1_664_525 &+ 1_013_904_223
            out.append(UInt8(truncatingIfNeeded: x >> 24))
        }
        return out
    }

    static let large = body(200_000, seed: 1)

    /// A downloader that retries at once, with `configure` applied.
    func resuming(_ configure: (inout ImageDownloader.Config) -> Void = { _ in }) -> ImageDownloader {
        var config = ImageDownloader.Config(
            failedURLTTL: nil, retryStrategy: RetryStrategy(maxRetries: 3, backoff: .immediate, jitter: 0))
        configure(&config)
        return makeDownloader(config)
    }

    /// Downloads `/image.jpg` from `origin` on a loopback server.
    func fetch(
        _ origin: RangeOrigin, with downloader: ImageDownloader, options: DownloadOptions = DownloadOptions()
    ) async throws -> ImageDownloadResult {
        try await withServer({ await origin.handler($0) }) { server in
            do {
                let result = try await downloader.download(NetFixture.url(server, "/image.jpg"), options: options)
                try await downloader.shutdown()
                return result
            } catch {
                try? await downloader.shutdown()
                throw error
            }
        }
    }

    @Test(arguments: [1, 4096, large.count / 2, large.count - 1])
    func cutBodiesContinueWhereTheyStopped(cut: Int) async throws {
        let origin = RangeOrigin(.init(body: Self.large), faults: [0: .cut(cut)])
        let downloader = resuming()
        let result = try await fetch(origin, with: downloader)
        #expect(result.data == Self.large && result.statusCode == 200 && result.resumedBytes == cut)
        let seen = origin.seen
        #expect(seen.count == 2)
        #expect(seen.last?.range == "bytes=\(cut)-" && seen.last?.ifRange == "\"v1\"" && seen.last?.status == 206)
        #expect(origin.bytesSent == Self.large.count, "no byte crossed twice")
        let stats = downloader.statistics
        #expect(stats.resumes == 1 && stats.resumedBytes == cut && stats.retries == 1)
        #expect(result.validators.etag == "\"v1\"" && result.validators.contentType == "image/jpeg")
    }

    /// The HTTP transport hands a cut body back only to a request that asks for it; others get
    /// the failure alone, as before.
    @Test func theTransportHandsBackACutBodyOnlyWhenAsked() async throws {
        let origin = RangeOrigin(.init(body: Self.large), faults: [0: .cut(Self.cut), 1: .cut(Self.cut)])
        try await withServer({ await origin.handler($0) }) { server in
            let http = HTTPDataLoader()
            var request = DataRequest(url: NetFixture.url(server, "/image.jpg"))
            await #expect(throws: ImageDownloadError.truncatedBody(received: Self.cut, expected: Self.large.count)) {
                _ = try await http.load(request) { _, _ in }
            }
            request.keepsPartialBody = true
            do {
                _ = try await http.load(request) { _, _ in }
                Issue.record("a cut body was taken whole")
            } catch let cut as DataTransferInterrupted {
                #expect(cut.partial.statusCode == 200 && cut.partial.body == Array(Self.large.prefix(Self.cut)))
                #expect(cut.partial.headers.value(for: "ETag") == "\"v1\"")
                #expect(cut.failure == .truncatedBody(received: Self.cut, expected: Self.large.count))
            }
            try await http.shutdown()
        }
    }

    @Test func aCutContinuationContinuesAgain() async throws {
        let origin = RangeOrigin(.init(body: Self.large), faults: [0: .cut(1000), 1: .cut(5000)])
        let downloader = resuming()
        let result = try await fetch(origin, with: downloader)
        #expect(result.data == Self.large)
        #expect(origin.seen.map(\.range) == [nil, "bytes=1000-", "bytes=6000-"])
        #expect(origin.bytesSent == Self.large.count)
        #expect(downloader.statistics.resumes == 2 && downloader.statistics.resumedBytes == 7000)
    }

    @Test func aBodyCutBeforeItsFirstByteStartsOver() async throws {
        let origin = RangeOrigin(.init(body: Self.large), faults: [0: .cut(0)])
        let downloader = resuming()
        #expect(try await fetch(origin, with: downloader).data == Self.large)
        #expect(origin.seen.map(\.range) == [nil, nil])
    }

    @Test func aChangedFileIsTakenWholeNeverSpliced() async throws {
        let changed = Self.body(Self.large.count, seed: 2)
        let origin = RangeOrigin(.init(body: Self.large), faults: [0: .cut(Self.large.count / 2)])
        let downloader = resuming()
        // The file changes between the cut and the retry.
        downloader.addObserver { event in
            if case .willRetry = event {
                origin.change {
                    $0.body = changed
                    $0.etag = "\"v2\""
                }
            }
        }
        let result = try await fetch(origin, with: downloader)
        #expect(result.data == changed && result.validators.etag == "\"v2\"")
        let last = try #require(origin.seen.last)
        #expect(last.range == "bytes=\(Self.large.count / 2)-" && last.ifRange == "\"v1\"" && last.status == 200)
        #expect(downloader.statistics.resumes == 0)
    }

    /// An origin that answers the range whatever `If-Range` says: the part of another version
    /// (another ETag, or none) is not spliced on.
    @Test(arguments: ["\"v2\"", nil])
    func aContinuationOfAnotherVersionIsNotSpliced(etag: String?) async throws {
        let changed = Self.body(Self.large.count, seed: 3)
        var version = RangeOrigin.Version(body: Self.large)
        version.ignoresIfRange = true
        let origin = RangeOrigin(version, faults: [0: .cut(Self.cut)])
        let downloader = resuming()
        downloader.addObserver { event in
            if case .willRetry = event {
                origin.change {
                    $0.body = changed
                    $0.etag = etag
                }
            }
        }
        let result = try await fetch(origin, with: downloader)
        #expect(result.data == changed)
        #expect(
            origin.seen.map(\.status) == [200, 206, 200]
                && origin.seen.map(\.range) == [nil, "bytes=\(Self.cut)-", nil])
        #expect(downloader.statistics.resumes == 0)
    }

    @Test func anOriginThatIgnoresRangeIsTakenWhole() async throws {
        var version = RangeOrigin.Version(body: Self.large)
        version.ignoresRange = true
        let origin = RangeOrigin(version, faults: [0: .cut(70_000)])
        let downloader = resuming()
        #expect(try await fetch(origin, with: downloader).data == Self.large)
        #expect(origin.seen.map(\.status) == [200, 200] && origin.seen.last?.range == "bytes=70000-")
        #expect(downloader.statistics.resumes == 0)
    }

    static let cut = 50_000

    /// Continuations that do not continue the body: each is dropped and the file asked for whole.
    @Test(arguments: [
        ("bytes \(cut + 1)-\(large.count - 1)/\(large.count)", large.count - cut - 1),  // another start
        ("bytes \(cut)-\(large.count + 9)/\(large.count + 10)", large.count - cut + 10),  // another length
        ("bytes \(cut)-\(large.count - 2)/\(large.count)", large.count - cut - 1),  // ends early
        ("bytes \(cut)-\(large.count - 1)/\(large.count)", large.count - cut - 7),  // fewer bytes than it says
        ("bytes \(cut)-\(large.count - 1)/\(large.count)", large.count - cut + 7),  // more bytes than it says
        ("bytes \(cut)-\(large.count - 1)/*", large.count - cut),  // no complete length
        ("bytes \(cut)-/\(large.count)", large.count - cut),  // malformed
        ("items \(cut)-\(large.count - 1)/\(large.count)", large.count - cut),  // another unit
    ])
    func lyingContentRangesStartOver(contentRange: String, length: Int) async throws {
        let origin = RangeOrigin(
            .init(body: Self.large), faults: [0: .cut(Self.cut), 1: .lie(contentRange: contentRange, length: length)])
        let downloader = resuming()
        let result = try await fetch(origin, with: downloader)
        #expect(result.data == Self.large, "never a splice")
        #expect(origin.seen.map(\.range) == [nil, "bytes=\(Self.cut)-", nil])
        #expect(downloader.statistics.resumes == 0 && downloader.statistics.retries == 1)
    }

    /// Responses that cannot be resumed: the retry asks for the whole file.
    @Test(arguments: [
        ("a weak ETag", [("ETag", "W/\"v1\"")]),
        ("no validator", []),
        (
            "a Last-Modified as new as the Date",
            [("Last-Modified", "Sun, 29 Nov 2026 10:00:00 GMT"), ("Date", "Sun, 29 Nov 2026 10:00:00 GMT")]
        ),
        (
            "a weak ETag beside an old Last-Modified",
            [
                ("ETag", "W/\"v1\""), ("Last-Modified", "Sun, 29 Nov 2026 09:00:00 GMT"),
                ("Date", "Sun, 29 Nov 2026 10:00:00 GMT"),
            ]
        ),
        ("no Accept-Ranges", [("ETag", "\"v1\""), ("Accept-Ranges", "none")]),
        ("a Content-Encoding left encoded", [("ETag", "\"v1\""), ("Content-Encoding", "br")]),
    ])
    func responsesWithoutAStrongValidatorStartOver(_ why: String, headers: [(String, String)]) async throws {
        var version = RangeOrigin.Version(body: Self.large)
        version.etag = headers.first { $0.0 == "ETag" }?.1
        version.lastModified = headers.first { $0.0 == "Last-Modified" }?.1
        version.date = headers.first { $0.0 == "Date" }?.1
        version.acceptRanges = !headers.contains { $0 == ("Accept-Ranges", "none") }
        version.extraHeaders = headers.filter { $0.0 == "Content-Encoding" }
        let origin = RangeOrigin(version, faults: [0: .cut(Self.cut)])
        let downloader = resuming()
        let result = try await fetch(origin, with: downloader)
        #expect(result.data == Self.large, "\(why)")
        #expect(origin.seen.map(\.range) == [nil, nil], "\(why): not resumed")
    }

    @Test func anOldEnoughLastModifiedIsAStrongValidator() async throws {
        var version = RangeOrigin.Version(body: Self.large)
        version.etag = nil
        version.lastModified = "Sun, 29 Nov 2026 09:59:59 GMT"
        version.date = "Sun, 29 Nov 2026 10:00:00 GMT"
        let origin = RangeOrigin(version, faults: [0: .cut(Self.cut)])
        let downloader = resuming()
        #expect(try await fetch(origin, with: downloader).data == Self.large)
        #expect(origin.seen.last?.ifRange == "Sun, 29 Nov 2026 09:59:59 GMT" && origin.seen.last?.status == 206)
    }

    @Test func aStalledBodyContinuesAfterItsTimeout() async throws {
        let gate = Gate()
        let origin = RangeOrigin(.init(body: Self.large), faults: [0: .stall(Self.cut, gate)])
        let downloader = resuming { $0.timeout = .seconds(1) }
        downloader.addObserver { event in
            if case .willRetry(_, _, _, let error) = event, case .timedOut = error { gate.open() }
        }
        #expect(try await fetch(origin, with: downloader).data == Self.large)
        #expect(origin.seen.last?.range == "bytes=\(Self.cut)-" && downloader.statistics.resumedBytes == Self.cut)
    }

    @Test func aRevalidationCutIsContinuedWithoutItsCondition() async throws {
        let origin = RangeOrigin(.init(body: Self.large), faults: [0: .cut(Self.cut)])
        let downloader = resuming()
        let result = try await fetch(
            origin, with: downloader, options: DownloadOptions(revalidating: ResponseValidators(etag: "\"v0\"")))
        #expect(result.data == Self.large && !result.notModified)
        #expect(origin.seen.map(\.ifNoneMatch) == ["\"v0\"", nil] && origin.seen.last?.status == 206)
    }

    @Test func theWholeBodyCountsAgainstTheLimit() async throws {
        let limit = Self.large.count + 100
        // A continuation that says it brings the whole file again after the bytes kept.
        let origin = RangeOrigin(
            .init(body: Self.large),
            faults: [
                0: .cut(Self.cut),
                1: .lie(
                    contentRange: "bytes \(Self.cut)-\(Self.large.count - 1)/\(Self.large.count)",
                    length: Self.large.count),
            ])
        let downloader = resuming { $0.maxBodySize = limit }
        await #expect(throws: ImageDownloadError.bodyTooLarge(limit: limit, declared: Self.cut + Self.large.count)) {
            try await fetch(origin, with: downloader)
        }
    }

    /// A caller that asks a range of its own gets the origin's answer to it, and a cut one is
    /// asked again as the caller wrote it, never continued.
    @Test func aCallersOwnRangeIsTheirs() async throws {
        let origin = RangeOrigin(.init(body: Self.large), faults: [0: .cut(1000)])
        let downloader = resuming { $0.requiresImageBody = false }
        let result = try await fetch(
            origin, with: downloader, options: DownloadOptions(headers: [HTTPHeaderField("Range", "bytes=0-99999")]))
        #expect(result.statusCode == 206 && result.data == Array(Self.large[0..<100_000]))
        #expect(
            origin.seen.map(\.range) == ["bytes=0-99999", "bytes=0-99999"]
                && origin.seen.allSatisfy { $0.ifRange == nil })
        #expect(downloader.statistics.resumes == 0)
    }

    @Test func resumingCanBeTurnedOff() async throws {
        let origin = RangeOrigin(.init(body: Self.large), faults: [0: .cut(Self.cut)])
        let downloader = resuming { $0.resumesDownloads = false }
        #expect(try await fetch(origin, with: downloader).data == Self.large)
        #expect(origin.seen.map(\.range) == [nil, nil])
    }

    @Test func s3ObjectsContinueThroughTheSignedTransport() async throws {
        let origin = RangeOrigin(.init(body: Self.large), faults: [0: .cut(Self.cut)])
        try await withServer({ await origin.handler($0) }) { server in
            let downloader = resuming {
                $0.s3 = S3Configuration(
                    endpoint: URL(string: server.baseURL)!,
                    credentials: AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "secret"))
            }
            let result = try await downloader.download(URL(string: "s3://photos/a/image.jpg")!)
            #expect(result.data == Self.large && result.url.absoluteString == "s3://photos/a/image.jpg")
            #expect(origin.seen.map(\.range) == [nil, "bytes=\(Self.cut)-"] && origin.seen.last?.status == 206)
            #expect(server.requestCount("/photos/a/image.jpg") == 2)
            try await downloader.shutdown()
        }
    }
}
