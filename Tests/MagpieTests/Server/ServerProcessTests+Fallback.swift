import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie
@testable import MagpieServer

/// `magpie-server` with imgproxy's fallback variables: the image from base64 text, and a
/// fallback URL judged by the address policy as any source is, at start.
extension ServerProcessTests {
    @Test func theFallbackImageFromImgproxysVariables() async throws {
        let origin = try await LoopbackServer(host: "127.0.0.2") { _ in .respond(status: 404) }
        let dir = try TemporaryDirectory()
        let data = Data(try ImageServiceTests.fallbackBytes()).base64EncodedString()
        let child = try ChildProcess(
            Self.binary, ["--allow-unsigned", "--bind", "127.0.0.1:0", "--cache-dir", dir.path("cache")],
            environment: [
                "IMGPROXY_ALLOW_PRIVATE_SOURCE_ADDRESSES": "1", "IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES": "1",
                "IMGPROXY_FALLBACK_IMAGE_DATA": data, "IMGPROXY_FALLBACK_IMAGE_HTTP_CODE": "410",
                "IMGPROXY_WATERMARK_DATA": data, "IMGPROXY_WATERMARK_OPACITY": "0.5",
            ])
        let line = try #require(child.readLine())
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0) }, "\(line)")
        let loader = HTTPDataLoader(addressPolicy: .allowAll)
        let r = try await loader.load(
            DataRequest(
                url: URL(string: "http://127.0.0.1:\(port)/_/w:24/plain/http://127.0.0.2:\(origin.port)/x.jpg")!,
                acceptableStatusCodes: 0..<600), progress: { _, _ in })
        #expect(r.statusCode == 410 && (try? Image(decoding: r.body))?.width == 24)
        // The watermark from base64 text, at half opacity: red over the red fallback stays red,
        // so the fallback (80×40 red) marked with itself is still red at full alpha.
        let marked = try await loader.load(
            DataRequest(
                url: URL(
                    string: "http://127.0.0.1:\(port)/_/w:24/wm:1:ce/f:png/plain/http://127.0.0.2:\(origin.port)/y.jpg")!,
                acceptableStatusCodes: 0..<600), progress: { _, _ in })
        let pixels = try Image(decoding: marked.body).pixels
        #expect(marked.statusCode == 410 && Array(pixels[0..<4]) == [255, 0, 0, 255])
        try await loader.shutdown()
        kill(child.process.processIdentifier, SIGTERM)
        child.process.waitUntilExit()
        // A fallback URL at an address the policy refuses stops the start, as a source is refused.
        let inside = try await LoopbackServer(host: "127.0.0.1") { _ in .ok(NetFixture.png, contentType: "image/png") }
        let errors = Pipe()
        let refused = try ChildProcess(
            Self.binary, ["--allow-unsigned", "--bind", "127.0.0.1:0", "--cache-dir", dir.path("cache2")],
            standardError: errors.fileHandleForWriting,
            environment: ["IMGPROXY_FALLBACK_IMAGE_URL": "http://127.0.0.1:\(inside.port)/f.png"])
        #expect(refused.readLine() == nil, "the server never listens")
        refused.process.waitUntilExit()
        try errors.fileHandleForWriting.close()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(refused.process.terminationStatus != 0 && text.contains("--fallback-image-url"), "\(text)")
        #expect(inside.requestCount("/f.png") == 0, "the refused address is never asked")
        try await inside.shutdown()
        try await origin.shutdown()
    }
}

/// `IMGPROXY_REQUESTS_QUEUE_SIZE`: the workers plus the queue are answered at once, the next is
/// 429 at once.
extension ServerProcessTests {
    @Test func theRequestsQueueSizeBoundsRequestsInFlight() async throws {
        let gate = Gate()
        let arrived = Recorder<String>()
        let origin = try await LoopbackServer(host: "127.0.0.2") { request in
            arrived.add(request.path)
            await gate.wait()
            return .ok(NetFixture.jpeg, contentType: "image/jpeg")
        }
        let dir = try TemporaryDirectory()
        let child = try ChildProcess(
            Self.binary, ["--allow-unsigned", "--bind", "127.0.0.1:0", "--cache-dir", dir.path("cache")],
            environment: [
                "IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES": "1", "IMGPROXY_WORKERS": "1",
                "IMGPROXY_REQUESTS_QUEUE_SIZE": "1",
            ])
        let line = try #require(child.readLine())
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0) }, "\(line)")
        let loader = HTTPDataLoader(addressPolicy: .allowAll)
        func get(_ name: String) async throws -> Int {
            try await loader.load(
                DataRequest(
                    url: URL(string: "http://127.0.0.1:\(port)/_/w:8/plain/http://127.0.0.2:\(origin.port)/\(name)")!,
                    acceptableStatusCodes: 0..<600), progress: { _, _ in }
            ).statusCode
        }
        async let first = get("a.jpg")
        async let second = get("b.jpg")
        await eventually("both requests at the origin") { arrived.all.count == 2 }
        #expect(try await get("c.jpg") == 429, "one worker and a queue of one: the third is refused at once")
        gate.open()
        let (a, b) = try await (first, second)
        #expect(a == 200 && b == 200)
        try await loader.shutdown()
        kill(child.process.processIdentifier, SIGTERM)
        child.process.waitUntilExit()
        try await origin.shutdown()
    }
}
