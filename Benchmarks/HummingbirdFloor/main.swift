// The framework's floor for the service benchmark: a bare Hummingbird 2 route answering bytes
// held in memory (the files of a folder, as nginx serves them), with nothing of Magpie in the
// way. What magpie-server's warm hits cost beyond this is the service's own.
//   magpie-hb-floor PORT FOLDER [--nio-executor]
// --nio-executor runs Swift concurrency on NIO's event loops, as magpie-server's flag of that name.
import Hummingbird
import NIOCore
import NIOPosix

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

let arguments = CommandLine.arguments
guard arguments.count >= 3, let port = Int(arguments[1]) else {
    print("usage: magpie-hb-floor PORT FOLDER [--nio-executor]")
    exit(2)
}
if arguments.contains("--nio-executor") {
    guard NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor() else {
        print("could not install NIO as the global executor")
        exit(1)
    }
}
var files: [String: ByteBuffer] = [:]
for name in try FileManager.default.contentsOfDirectory(atPath: arguments[2]) {
    let data = try Data(contentsOf: URL(fileURLWithPath: arguments[2] + "/" + name))
    files[name] = ByteBuffer(bytes: data)
}
let bodies = files
let router = Router()
router.get("/out/:name") { _, context -> Response in
    guard let name = context.parameters.get("name"), let body = bodies[name] else { return Response(status: .notFound) }
    var headers = HTTPFields()
    headers[.contentType] = "image/jpeg"
    headers[.contentLength] = String(body.readableBytes)
    return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
}
let app = Application(
    router: router, configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "floor"),
    onServerRunning: { _ in print("magpie-hb-floor listening on \(port)") })
try await app.runService()
