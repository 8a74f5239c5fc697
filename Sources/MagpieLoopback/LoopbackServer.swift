import Dispatch
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// A request as the loopback server saw it.
public struct LoopbackRequest: Sendable {
    public var method: String
    /// Path with query, as sent (`/img/1.jpg?size=2`).
    public var uri: String
    public var headers: [(name: String, value: String)]

    public init(method: String = "GET", uri: String, headers: [(name: String, value: String)] = []) {
        self.method = method
        self.uri = uri
        self.headers = headers
    }

    /// The path without the query.
    public var path: String { String(uri.split(separator: "?", maxSplits: 1).first ?? "") }

    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name.lowercased() == lower }?.value
    }
}

/// How the server answers.
public enum LoopbackReply: Sendable {
    /// A complete response (`Content-Length` is added).
    case respond(status: Int, headers: [(String, String)] = [], body: [UInt8] = [])
    /// Declares `declaredLength` bytes, sends `body` (fewer), then closes the connection: a
    /// truncated body or a reset mid-body.
    case truncated(status: Int, headers: [(String, String)] = [], body: [UInt8], declaredLength: Int)
    /// Sends the head and then `chunks`, waiting `interval` between them (a slow body), with
    /// chunked encoding when `contentLength` is nil.
    case slow(status: Int, headers: [(String, String)] = [], chunks: [[UInt8]], interval: Duration, contentLength: Int?)
    /// Declares `declaredLength` bytes and sends `body` in parts of `chunk` bytes, `interval` apart
    /// (a link of a known rate); closes the connection after it when `body` is shorter than declared.
    case paced(
        status: Int, headers: [(String, String)] = [], body: [UInt8], declaredLength: Int, chunk: Int,
        interval: Duration)
    /// Declares `declaredLength` bytes, sends `body` (fewer), waits for `until` to return, then
    /// closes the connection: a body that stalls until the test lets it go.
    case stall(
        status: Int, headers: [(String, String)] = [], body: [UInt8], declaredLength: Int,
        until: @Sendable () async -> Void)
    /// Closes the connection without answering.
    case close
    /// Writes `bytes` as the whole answer, past the HTTP encoder, then closes the connection: a
    /// malformed or hostile response.
    case raw([UInt8])

    /// 200 with a body and its Content-Type.
    public static func ok(_ body: [UInt8], contentType: String) -> LoopbackReply {
        .respond(status: 200, headers: [("Content-Type", contentType)], body: body)
    }
}

/// An HTTP/1.1 server on 127.0.0.1 (swift-nio) whose answers come from an async handler: the
/// handler can wait on a gate, sleep, or return any status or broken body. It counts requests
/// per path. Used by the tests and by `magpie demo`.
public final class LoopbackServer: Sendable {
    public typealias Handler = @Sendable (LoopbackRequest) async -> LoopbackReply

    public let port: Int
    private let channel: any Channel
    private let group: MultiThreadedEventLoopGroup
    private let counts: Counts

    /// Starts serving on `host` (a loopback address: `127.0.0.2` stands in for another host) at
    /// `port` (0: a free one).
    public init(host: String = "127.0.0.1", port: Int = 0, threads: Int = 1, handler: @escaping Handler) async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        let counts = Counts()
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 1024)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                counts.connected()
                return channel.pipeline.configureHTTPServerPipeline(withErrorHandling: true).flatMap {
                    channel.pipeline.addHandler(RequestHandler(handler: handler, counts: counts))
                }
            }
            .childChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
        do {
            self.channel = try await bootstrap.bind(host: host, port: port).get()
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
        self.port = channel.localAddress?.port ?? 0
        self.host = host
        self.group = group
        self.counts = counts
    }

    /// The address it listens on.
    public let host: String

    /// `http://<host>:<port>` (`[::1]` for an IPv6 host).
    public var baseURL: String { "http://\(host.contains(":") ? "[\(host)]" : host):\(port)" }

    /// TCP connections accepted so far (a client that reuses one makes many requests on it).
    public var connectionsAccepted: Int { counts.connections() }

    /// Requests served for `path` (without query) so far.
    public func requestCount(_ path: String) -> Int { counts.get(path) }
    /// Requests served so far, all paths.
    public var totalRequests: Int { counts.total() }

    public func shutdown() async throws {
        try? await channel.close()
        try await group.shutdownGracefully()
    }

    final class Counts: Sendable {
        private let state = NIOLockedValueBox<[String: Int]>([:])
        private let accepted = NIOLockedValueBox(0)
        func connected() { accepted.withLockedValue { $0 += 1 } }
        func connections() -> Int { accepted.withLockedValue { $0 } }
        func add(_ path: String) { state.withLockedValue { $0[path, default: 0] += 1 } }
        func get(_ path: String) -> Int { state.withLockedValue { $0[path] ?? 0 } }
        func total() -> Int { state.withLockedValue { $0.values.reduce(0, +) } }
    }

    final class RequestHandler: ChannelInboundHandler, Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        let handler: Handler
        let counts: Counts
        private let head = NIOLockedValueBox<HTTPRequestHead?>(nil)

        init(handler: @escaping Handler, counts: Counts) {
            self.handler = handler
            self.counts = counts
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let h): head.withLockedValue { $0 = h }
            case .body: break
            case .end:
                guard let h = head.withLockedValue({ $0 }) else { return }
                let request = LoopbackRequest(
                    method: h.method.rawValue, uri: h.uri, headers: h.headers.map { ($0.name, $0.value) })
                counts.add(request.path)
                let channel = context.channel
                let keepAlive = h.isKeepAlive
                let handler = self.handler
                // Off Swift's cooperative pool: a test that blocks its threads (waiting for a child
                // process that is talking to this server, say) must not starve the server.
                Task(executorPreference: LoopbackExecutor.shared) {
                    let reply = await handler(request)
                    await Self.send(reply, on: channel, keepAlive: keepAlive)
                }
            }
        }

        static func send(_ reply: LoopbackReply, on channel: any Channel, keepAlive: Bool) async {
            func head(_ status: Int, _ headers: [(String, String)], length: Int?) -> HTTPServerResponsePart {
                var fields = HTTPHeaders(headers)
                if let length { fields.replaceOrAdd(name: "Content-Length", value: String(length)) }
                if !keepAlive { fields.replaceOrAdd(name: "Connection", value: "close") }
                return .head(
                    HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: status), headers: fields)
                )
            }
            func body(_ bytes: [UInt8]) -> HTTPServerResponsePart {
                .body(.byteBuffer(ByteBuffer(bytes: bytes)))
            }
            switch reply {
            case .respond(let status, let headers, let bytes):
                channel.write(head(status, headers, length: bytes.count), promise: nil)
                if !bytes.isEmpty { channel.write(body(bytes), promise: nil) }
                try? await channel.writeAndFlush(HTTPServerResponsePart.end(nil))
                if !keepAlive { try? await channel.close() }
            case .truncated(let status, let headers, let bytes, let declared):
                channel.write(head(status, headers, length: declared), promise: nil)
                _ = try? await channel.writeAndFlush(body(bytes)).get()
                try? await channel.close()
            case .slow(let status, let headers, let chunks, let interval, let length):
                var fields = headers
                if length == nil { fields.append(("Transfer-Encoding", "chunked")) }
                _ = try? await channel.writeAndFlush(head(status, fields, length: length)).get()
                for chunk in chunks {
                    try? await Task.sleep(for: interval)
                    guard channel.isActive else { return }
                    _ = try? await channel.writeAndFlush(body(chunk)).get()
                }
                _ = try? await channel.writeAndFlush(HTTPServerResponsePart.end(nil)).get()
                if !keepAlive { try? await channel.close() }
            case .paced(let status, let headers, let bytes, let declared, let chunk, let interval):
                _ = try? await channel.writeAndFlush(head(status, headers, length: declared)).get()
                var start = 0
                while start < bytes.count {
                    let end = min(bytes.count, start + max(1, chunk))
                    guard channel.isActive else { return }
                    _ = try? await channel.writeAndFlush(body(Array(bytes[start..<end]))).get()
                    start = end
                    if start < bytes.count { try? await Task.sleep(for: interval) }
                }
                if bytes.count < declared {
                    try? await channel.close()
                    return
                }
                _ = try? await channel.writeAndFlush(HTTPServerResponsePart.end(nil)).get()
                if !keepAlive { try? await channel.close() }
            case .stall(let status, let headers, let bytes, let declared, let until):
                channel.write(head(status, headers, length: declared), promise: nil)
                _ = try? await channel.writeAndFlush(body(bytes)).get()
                await until()
                try? await channel.close()
            case .close:
                try? await channel.close()
            case .raw(let bytes):
                // Written from the encoder's place in the pipeline toward the socket, so nothing
                // parses or frames it.
                let written = channel.eventLoop.submit {
                    let encoder = try channel.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self)
                    return encoder.writeAndFlush(NIOAny(ByteBuffer(bytes: bytes)))
                }.flatMap { $0 }
                _ = try? await written.get()
                try? await channel.close()
            }
        }
    }
}

/// Runs the server's handler tasks on a dispatch queue of their own instead of Swift's
/// cooperative pool, so they answer even while the test's own tasks hold every pool thread.
final class LoopbackExecutor: TaskExecutor, Sendable {
    static let shared = LoopbackExecutor()
    private let queue = DispatchQueue(label: "magpie.loopback.handlers", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
