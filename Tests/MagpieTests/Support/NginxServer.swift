import Foundation
import MagpieTestSupport
import Testing

/// Debian's nginx, as a child process on a free loopback port, serving `www/` of its own
/// temporary folder (its configuration, logs and pid file live there too). Tests that need it
/// skip with a visible message where /usr/sbin/nginx is absent.
final class NginxServer {
    static let binary = "/usr/sbin/nginx"
    let dir: TemporaryDirectory
    let port: Int
    private let process = Process()

    static var isAvailable: Bool {
        let here = FileManager.default.isExecutableFile(atPath: binary)
        if !here { print("SKIPPED: nginx tests: \(binary) is absent (scripts/bootstrap.sh installs nginx)") }
        return here
    }

    var www: String { dir.path("www") }
    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)" + path)! }

    /// Starts nginx and returns once it listens (its pid file is written after its sockets are
    /// bound). `serverDirectives` go into the `server` block (`expires 60s;`, say).
    init(serverDirectives: String = "") async throws {
        dir = try TemporaryDirectory()
        port = try Self.freePort()
        let fm = FileManager.default
        try fm.createDirectory(atPath: dir.path("www"), withIntermediateDirectories: true)
        try fm.createDirectory(atPath: dir.path("tmp"), withIntermediateDirectories: true)
        // As root, nginx's workers would drop to `nobody`, who cannot read a 0700 temporary folder.
        let user = getuid() == 0 ? "user root;" : ""
        let conf = """
            \(user)
            daemon off;
            worker_processes 1;
            pid \(dir.path("nginx.pid"));
            error_log \(dir.path("error.log")) warn;
            events { worker_connections 64; }
            http {
                access_log \(dir.path("access.log"));
                client_body_temp_path \(dir.path("tmp"));
                proxy_temp_path \(dir.path("tmp"));
                fastcgi_temp_path \(dir.path("tmp"));
                uwsgi_temp_path \(dir.path("tmp"));
                scgi_temp_path \(dir.path("tmp"));
                types { image/jpeg jpg; image/png png; }
                server { listen 127.0.0.1:\(port); root \(dir.path("www")); \(serverDirectives) }
            }
            """
        try conf.write(toFile: dir.path("nginx.conf"), atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = ["-c", dir.path("nginx.conf"), "-p", dir.path(""), "-e", dir.path("error.log")]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let pidFile = dir.path("nginx.pid")
        let running = process
        await eventually("nginx listening") { fm.fileExists(atPath: pidFile) || !running.isRunning }
        guard process.isRunning else {
            let log = (try? String(contentsOfFile: dir.path("error.log"), encoding: .utf8)) ?? ""
            throw NginxError(message: "nginx did not start: \(log)")
        }
    }

    /// Stops nginx (SIGQUIT: a graceful shutdown, quick with no connections open).
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGQUIT)
        process.waitUntilExit()
    }

    deinit { stop() }

    struct NginxError: Error { let message: String }

    /// A port the kernel just handed out for 127.0.0.1 (closed again before nginx binds it).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw NginxError(message: "socket failed") }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0
            }
        }
        guard bound else { throw NginxError(message: "bind failed") }
        return Int(UInt16(bigEndian: addr.sin_port))
    }
}
