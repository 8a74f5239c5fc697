import Foundation
import Magpie

/// `magpie-net-bench s3 ENDPOINT NGINX_BASE [-j N] [-n N]`: the object `bench/photo.jpg`, stored in
/// moto's S3 server at ENDPOINT and served as the same bytes by nginx at NGINX_BASE/bench/photo.jpg.
/// Reports what signing a request costs (µs, median of 5 rounds of 20,000), and the cold request
/// rates, medians of 5 interleaved rounds of N downloads, `-j` at a time, of three sides:
/// `http://` from nginx (the baseline), `s3://` with nginx as the endpoint (the S3 transport's own
/// cost: nginx ignores the signature) and `s3://` from moto.
func measureS3(endpoint: URL, nginx: String) async throws {
    let credentials = AWSCredentials(accessKeyID: "AKIABENCHMARK", secretAccessKey: "bench/secret/key")
    let signer = AWSSignatureV4(credentials: credentials, region: "us-east-1")
    let target = URL(string: endpoint.absoluteString + "/bench/photo.jpg")!
    var perSignature: [Double] = []
    var sink = 0
    for _ in 0..<5 {
        let n = 20_000
        let t = await seconds {
            for i in 0..<n {
                sink &+=
                    signer.signedHeaders(method: "GET", url: target, date: Date(timeIntervalSince1970: Double(i)))
                    .count
            }
        }
        perSignature.append(t / Double(n) * 1e6)
    }
    print(String(format: "signing one GET: %.1f µs (median of 5 rounds of 20,000; %d)", median(perSignature), sink % 2))

    let count = option("-n", 200)
    func downloader(s3: URL?) -> ImageDownloader {
        var config = ImageDownloader.Config(maxConcurrentDownloadsPerHost: concurrency, failedURLTTL: nil)
        if let s3 { config.s3 = S3Configuration(endpoint: s3, credentials: credentials) }
        return ImageDownloader(config: config)
    }
    let sides: [(name: String, url: URL, downloader: ImageDownloader)] = [
        ("http:// from nginx", URL(string: nginx + "/bench/photo.jpg")!, downloader(s3: nil)),
        ("s3:// to nginx", URL(string: "s3://bench/photo.jpg")!, downloader(s3: URL(string: nginx)!)),
        ("s3:// from moto", URL(string: "s3://bench/photo.jpg")!, downloader(s3: endpoint)),
    ]
    var rates: [String: [Double]] = [:]
    for _ in 0..<5 {
        for side in sides {
            // A header per request keeps concurrent downloads of one URL apart (no coalescing).
            let t = try await seconds {
                try await BoundedConcurrency.forEach(count: count, limit: concurrency) { i in
                    let options = DownloadOptions(headers: [HTTPHeaderField("X-Bench", String(i))])
                    _ = try await side.downloader.download(side.url, options: options)
                }
            }
            rates[side.name, default: []].append(Double(count) / t)
        }
    }
    let base = median(rates[sides[0].name]!)
    for side in sides {
        let rate = median(rates[side.name]!)
        let name = side.name.padding(toLength: 20, withPad: " ", startingAt: 0)
        print(name + String(format: " %7.1f downloads/s  %.2f× http:// from nginx", rate, rate / base))
    }
    for side in sides { try await side.downloader.shutdown() }
}
