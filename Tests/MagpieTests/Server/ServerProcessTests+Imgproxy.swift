import Foundation
import MagpieLoopback
import MagpieTestSupport
import Synchronization
import Testing

@testable import Magpie
@testable import MagpieServer

/// `magpie-server` configured by imgproxy's variables: read where no flag is given, a flag
/// winning over its variable, a value that does not parse stopping the start with its name.
extension ServerProcessTests {
    @Test func aVariableThatDoesNotParseStopsTheStartWithItsName() throws {
        let dir = try TemporaryDirectory()
        for (name, value) in [
            ("IMGPROXY_TTL", "soon"), ("IMGPROXY_KEY", "xyz"), ("IMGPROXY_AUTO_WEBP", "yes"),
            ("IMGPROXY_MAX_SRC_RESOLUTION", "-1"), ("IMGPROXY_FORMAT_QUALITY", "jpeg=101"),
            ("IMGPROXY_BIND", "nowhere"), ("IMGPROXY_IGNORE_SSL_VERIFICATION", "true"),
            ("IMGPROXY_USE_GCS", "true"), ("IMGPROXY_URL_REPLACEMENTS", "no-pair"),
        ] {
            let errors = Pipe()
            let child = try ChildProcess(
                Self.binary, ["--allow-unsigned", "--cache-dir", dir.path("cache")],
                standardError: errors.fileHandleForWriting, environment: [name: value])
            #expect(child.readLine() == nil, "\(name): the server never listens")
            child.process.waitUntilExit()
            try errors.fileHandleForWriting.close()
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(child.process.terminationStatus != 0 && text.contains("\(name)=\(value)"), "\(name): \(text)")
        }
    }

    @Test func imgproxysVariablesConfigureTheServer() async throws {
        let origin = try await LoopbackServer(host: "127.0.0.2") { _ in .ok(NetFixture.jpeg, contentType: "image/jpeg")
        }
        let dir = try TemporaryDirectory()
        let key = ServiceConfiguration.SigningKey(key: Array("k3y".utf8), salt: Array("s4lt".utf8))
        let errors = Pipe()
        let child = try ChildProcess(
            Self.binary, ["--bind", "127.0.0.1:0", "--cache-dir", dir.path("cache"), "--max-src-pixels", "50000000"],
            standardError: errors.fileHandleForWriting,
            environment: [
                "IMGPROXY_KEY": "6b3379", "IMGPROXY_SALT": "73346c74", "IMGPROXY_SECRET": "t0ken",
                "IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES": "true", "IMGPROXY_PRESETS": "small=rs:fit:16:16/q:50",
                "IMGPROXY_TTL": "60", "IMGPROXY_MAX_SRC_RESOLUTION": "0.001", "IMGPROXY_JPEG_PROGRESSIVE": "true",
                "IMGPROXY_PNG_INTERLACED": "true",
                "IMGPROXY_BIND": ":1",
            ])
        let line = try #require(child.readLine())
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0) }, "\(line)")
        let loader = HTTPDataLoader(addressPolicy: .allowAll)
        func get(_ options: String, bearer: String? = "t0ken") async throws -> DataResponse {
            let signed = "/\(options)/plain/http://127.0.0.2:\(origin.port)/a.jpg"
            let target = "/" + URLSignature.sign(signed, with: key) + signed
            return try await loader.load(
                DataRequest(
                    url: URL(string: "http://127.0.0.1:\(port)" + target)!,
                    headers: bearer.map { [HTTPHeaderField("Authorization", "Bearer \($0)")] } ?? [],
                    acceptableStatusCodes: 0..<600), progress: { _, _ in })
        }
        // The key, salt, secret, loopback sources, presets and TTL from the variables; the
        // resolution from the flag given (the variable's 1,000 px would refuse the 96×64 source).
        let small = try await get("pr:small")
        #expect(small.statusCode == 200, "\(String(decoding: small.body, as: UTF8.self))")
        #expect(try Image(decoding: small.body).width == 16)
        #expect(ImageFormatNamesTests.jpegFrame(small.body).0 == 0xC2, "IMGPROXY_JPEG_PROGRESSIVE: progressive")
        #expect(small.headers.value(for: "Cache-Control") == "public, max-age=60")
        #expect(try await get("pr:small", bearer: nil).statusCode == 403)
        #expect(try await get("pr:small", bearer: "t0kem").statusCode == 403)
        let health = try await loader.load(
            DataRequest(url: URL(string: "http://127.0.0.1:\(port)/health")!, acceptableStatusCodes: 0..<600),
            progress: { _, _ in })
        #expect(health.statusCode == 200, "/health needs no secret")
        try await loader.shutdown()
        kill(child.process.processIdentifier, SIGTERM)
        child.process.waitUntilExit()
        try errors.fileHandleForWriting.close()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(text.contains("IMGPROXY_MAX_SRC_RESOLUTION is set but --max-src-pixels is given"), "\(text)")
        #expect(text.contains("IMGPROXY_BIND is set but --bind is given"))
        #expect(text.contains("IMGPROXY_PNG_INTERLACED: PNGs are written without interlacing; ignored"))
        try await origin.shutdown()
    }

    /// The path variables as a deployment sets them: a prefix, another arguments separator,
    /// presets divided by their own separator and from a file, allowed options, a health path.
    @Test func imgproxysPathVariablesThroughTheServer() async throws {
        let agents = Mutex<Set<String>>([])
        let origin = try await LoopbackServer(host: "127.0.0.2") { request in
            agents.withLock { _ = $0.insert(request.header("User-Agent") ?? "") }
            return .ok(NetFixture.jpeg, contentType: "image/jpeg")
        }
        let dir = try TemporaryDirectory()
        let presetsFile = dir.path("presets.txt")
        try Data("# thumbnails\nsmall=rs,fit,16,16\n\n".utf8).write(to: URL(fileURLWithPath: presetsFile))
        let child = try ChildProcess(
            Self.binary, ["--allow-unsigned", "--bind", "127.0.0.1:0", "--cache-dir", dir.path("cache")],
            environment: [
                "IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES": "1", "IMGPROXY_PATH_PREFIX": "img/",
                "IMGPROXY_ARGUMENTS_SEPARATOR": ",", "IMGPROXY_PRESETS": "wide=w,40|tall=h,40",
                "IMGPROXY_PRESETS_SEPARATOR": "|", "IMGPROXY_PRESETS_PATH": presetsFile,
                "IMGPROXY_ALLOWED_PROCESSING_OPTIONS": "pr,w", "IMGPROXY_HEALTH_CHECK_PATH": "/up",
                "IMGPROXY_ALLOW_PRIVATE_SOURCE_ADDRESSES": "1", "IMGPROXY_USER_AGENT": "thumbs/%current_version",
            ])
        let line = try #require(child.readLine())
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0) }, "\(line)")
        let loader = HTTPDataLoader(addressPolicy: .allowAll)
        func get(_ path: String) async throws -> DataResponse {
            try await loader.load(
                DataRequest(url: URL(string: "http://127.0.0.1:\(port)" + path)!, acceptableStatusCodes: 0..<600),
                progress: { _, _ in })
        }
        let source = "plain/http://127.0.0.2:\(origin.port)/a.jpg"
        for (options, width) in [("pr,small", 16), ("pr,wide", 40), ("w,24", 24)] {
            let r = try await get("/img/_/\(options)/\(source)")
            #expect(r.statusCode == 200, "\(options): \(r.statusCode)")
            #expect(try Image(decoding: r.body).width == width, "\(options)")
        }
        #expect(try await get("/img/_/h,24/\(source)").statusCode == 403, "h is not allowed")
        #expect(try await get("/_/w,24/\(source)").statusCode == 404, "outside the prefix")
        #expect(try await get("/img/up").statusCode == 200)
        #expect(
            agents.withLock { $0 } == ["thumbs/\(MagpieCore.version)"], "IMGPROXY_USER_AGENT, its version filled in")
        try await loader.shutdown()
        kill(child.process.processIdentifier, SIGTERM)
        child.process.waitUntilExit()
        try await origin.shutdown()
    }
}
