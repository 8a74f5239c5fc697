import Foundation
import Magpie
import MagpieLoopback
import Synchronization

/// `magpie-net-bench resume MB DIR`: a body of MB megabytes (a JPEG's first bytes, then noise)
/// from an origin on loopback that sends `Accept-Ranges: bytes` and a strong ETag and honours
/// `Range` with `If-Range` (as nginx does). Each download's first answer is cut at a quarter, a half
/// or three quarters of the body; the retry continues it (resume on, the default) or fetches the
/// whole again (`resumesDownloads = false`: the behaviour before). Medians of 5 interleaved rounds,
/// at the loopback's full speed and over a link paced to about 50 MB/s (parts of 256 KiB, 5 ms
/// apart). Reports the bytes the origin sent and the time, resumed against whole, as ratios.
func measureResume(megabytes: Int) async throws {
    var body: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0]
    var x: UInt32 = 7
    body.reserveCapacity(megabytes << 20)
    while body.count < megabytes << 20 {
        x = x &* 1_664_525 &+ 1_013_904_223
        body.append(UInt8(truncatingIfNeeded: x >> 24))
    }
    let payload = body
    let served = Mutex((requests: 0, bytes: 0))
    // The cut and the pacing of the run in progress, set before each download.
    let setting = Mutex((cut: 0, paced: false))
    let server = try await LoopbackServer(threads: 1) { request in
        let (cut, paced) = setting.withLock { $0 }
        let first = served.withLock { s -> Bool in
            s.requests += 1
            return s.requests == 1
        }
        var headers = [("Content-Type", "image/jpeg"), ("ETag", "\"bench\""), ("Accept-Ranges", "bytes")]
        var start = 0
        if let range = request.header("Range"), request.header("If-Range") == "\"bench\"",
            let n = Int(range.dropFirst(6).dropLast()), n < payload.count
        {
            start = n
            headers.append(("Content-Range", "bytes \(n)-\(payload.count - 1)/\(payload.count)"))
        }
        let status = start > 0 ? 206 : 200
        let part = Array(payload[start...])
        let sent = first ? Array(part.prefix(cut)) : part
        served.withLock { $0.bytes += sent.count }
        return .paced(
            status: status, headers: headers, body: sent, declaredLength: part.count,
            chunk: paced ? 256 << 10 : 1 << 30, interval: .milliseconds(5))
    }
    let url = URL(string: server.baseURL + "/big.jpg")!
    func downloader(resumes: Bool) -> ImageDownloader {
        var config = ImageDownloader.Config(
            timeout: .seconds(60), maxBodySize: 256 << 20, failedURLTTL: nil,
            retryStrategy: RetryStrategy(maxRetries: 2, backoff: .immediate, jitter: 0))
        config.resumesDownloads = resumes
        return ImageDownloader(config: config)
    }
    let sides = [("resumed", downloader(resumes: true)), ("whole", downloader(resumes: false))]
    print("a \(megabytes) MB body cut once, then retried: resumed (Range, If-Range) against whole")
    for paced in [false, true] {
        for fraction in [1, 2, 3] {
            let cut = payload.count * fraction / 4
            setting.withLock { $0 = (cut, paced) }
            var times: [String: [Double]] = [:]
            var bytes: [String: Int] = [:]
            for _ in 0..<5 {
                for (name, side) in sides {
                    served.withLock { $0 = (0, 0) }
                    let t = try await seconds {
                        let result = try await side.download(
                            url, options: DownloadOptions(ignoresFailedURLMemory: true))
                        precondition(result.data == payload, "the body came back wrong")
                    }
                    times[name, default: []].append(t)
                    bytes[name] = served.withLock { $0.bytes }
                }
            }
            let (r, w) = (median(times["resumed"]!), median(times["whole"]!))
            let link = paced ? "~50 MB/s link" : "loopback     "
            print(
                String(
                    format: "%@ cut at %d/4: bytes %.2f× (%d vs %d), time %.2f× (%.3f s vs %.3f s)", link, fraction,
                    Double(bytes["resumed"]!) / Double(bytes["whole"]!), bytes["resumed"]!, bytes["whole"]!, r / w, r, w
                ))
        }
    }
    for (_, side) in sides { try await side.shutdown() }
    try await server.shutdown()
}
