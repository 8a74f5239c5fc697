import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie

/// Three `magpie-server` processes behind nginx configured by `scripts/fleet-config.py`, over
/// loopback, with a request-counting origin on 127.0.0.2. Skipped with a message without nginx.
@Suite(.serialized) struct FleetTests {
    /// The nodes, the balancer and the origin of one test (constants, set up in `init`).
    final class Fleet: @unchecked Sendable {
        let dir: TemporaryDirectory
        let origin: LoopbackServer
        let nodes: [(name: String, child: ChildProcess, port: Int)]
        let balancer = Process()
        let port: Int
        let loader = HTTPDataLoader(addressPolicy: .allowAll)

        init(_ balancerName: String = "nginx", count: Int = 3, roundRobin: Bool = false) async throws {
            dir = try TemporaryDirectory()
            origin = try await LoopbackServer(host: "127.0.0.2") { request in
                request.path.hasSuffix(".jpg") ? .ok(NetFixture.jpeg, contentType: "image/jpeg") : .respond(status: 404)
            }
            nodes = try (1...count).map { [dir] i in
                let (child, port) = try ServerProcessTests.start([
                    "--allow-unsigned", "--cache-dir", dir.path("node\(i)"), "--node-name", "node\(i)",
                    "--allow-network", "127.0.0.2/32",
                ])
                return ("node\(i)", child, port)
            }
            port = try NginxServer.freePort()
            try FileManager.default.createDirectory(atPath: dir.path("nginx/tmp"), withIntermediateDirectories: true)
            let generate = try CLI.run(
                arguments: [
                    Self.repository.appendingPathComponent("scripts/fleet-config.py").path, balancerName, "--listen",
                    "127.0.0.1:\(port)", "--prefix", dir.path("nginx"),
                ] + nodes.flatMap { ["--node", "\($0.name)=127.0.0.1:\($0.port)"] }
                    + (roundRobin ? ["--round-robin"] : []),
                executable: URL(fileURLWithPath: "/usr/bin/python3"))
            #expect(generate.status == 0, "\(generate.stderr)")
            try generate.stdout.write(toFile: dir.path("nginx/balancer.conf"), atomically: true, encoding: .utf8)
            if balancerName == "nginx" {
                balancer.executableURL = URL(fileURLWithPath: NginxServer.binary)
                // As root, nginx's workers would drop to `nobody`, who cannot read a 0700 folder.
                balancer.arguments = [
                    "-c", dir.path("nginx/balancer.conf"), "-p", dir.path("nginx"), "-e", dir.path("nginx/error.log"),
                    "-g", getuid() == 0 ? "daemon off; user root;" : "daemon off;",
                ]
            } else {
                balancer.executableURL = URL(fileURLWithPath: Self.haproxy)
                balancer.arguments = ["-db", "-f", dir.path("nginx/balancer.conf")]
            }
            balancer.standardOutput = FileHandle.nullDevice
            balancer.standardError = FileHandle.nullDevice
            try balancer.run()
            let (running, port) = (balancer, port)
            await eventually("\(balancerName) listening") { Self.listening(port) || !running.isRunning }
        }

        static let haproxy = "/usr/sbin/haproxy"

        /// Whether something accepts connections on 127.0.0.1:`port`.
        static func listening(_ port: Int) -> Bool {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { return false }
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
        }

        /// Whether `name`'s binary is here; prints why a test is skipped when not.
        static func available(_ name: String) -> Bool {
            guard name == "haproxy" else { return NginxServer.isAvailable }
            let here = FileManager.default.isExecutableFile(atPath: haproxy)
            if !here { print("SKIPPED: HAProxy fleet tests: \(haproxy) is absent (scripts/bootstrap.sh installs it)") }
            return here
        }

        static var repository: URL {
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent()
        }

        /// A thumbnail of `source` at `width` through the balancer: status and answering node.
        func get(_ source: String, width: Int) async throws -> (status: Int, node: String?) {
            let target = "/unsafe/rs:fit:\(width):\(width)/plain/http://127.0.0.2:\(origin.port)/\(source)"
            let r = try await loader.load(
                DataRequest(url: URL(string: "http://127.0.0.1:\(port)" + target)!, acceptableStatusCodes: 0..<600),
                progress: { _, _ in })
            return (r.statusCode, r.headers.value(for: "X-Magpie-Node"))
        }

        func stop() async throws {
            try await loader.shutdown()
            if balancer.isRunning {
                kill(balancer.processIdentifier, SIGTERM)  // both stop at once (SIGQUIT would not stop HAProxy)
                balancer.waitUntilExit()
            }
            for node in nodes where node.child.process.isRunning { node.child.killHard() }
            try await origin.shutdown()
        }
    }

    static let balancers = ["nginx", "haproxy"]

    /// Every size of one source is answered by one node, and the origin sees one request; the same
    /// through round-robin spreads the sizes over every node, each fetching the source.
    @Test(arguments: balancers) func everySizeOfOneSourceLandsOnOneNode(_ balancer: String) async throws {
        guard Fleet.available(balancer) else { return }
        for roundRobin in [false, true] {
            let fleet = try await Fleet(balancer, roundRobin: roundRobin)
            var answered: Set<String> = []
            for width in 10..<40 {
                let r = try await fleet.get("photo.jpg", width: width)
                #expect(r.status == 200)
                if let node = r.node { answered.insert(node) }
            }
            let fetches = fleet.origin.requestCount("/photo.jpg")
            if roundRobin {
                #expect(answered.count == 3 && fetches == 3, "round-robin: \(answered), \(fetches) fetches")
            } else {
                #expect(answered.count == 1 && fetches == 1, "consistent hash: \(answered), \(fetches) fetches")
            }
            print(
                "fleet locality (\(balancer), \(roundRobin ? "round-robin" : "consistent hash")): 30 sizes, \(answered.count) nodes, \(fetches) origin fetches"
            )
            try await fleet.stop()
        }
    }

    /// 300 sources spread over three nodes, each taking 20–47% of them.
    @Test(arguments: balancers) func sourcesSpreadOverTheNodes(_ balancer: String) async throws {
        guard Fleet.available(balancer) else { return }
        let fleet = try await Fleet(balancer)
        var counts: [String: Int] = [:]
        for i in 0..<300 {
            let r = try await fleet.get("s\(i).jpg", width: 16)
            #expect(r.status == 200)
            counts[r.node ?? "?", default: 0] += 1
        }
        #expect(counts.count == 3 && counts.values.allSatisfy { (60...141).contains($0) }, "\(counts)")
        #expect(fleet.origin.totalRequests == 300)
        print("fleet spread (\(balancer)): 300 sources: \(counts.sorted { $0.key < $1.key })")
        try await fleet.stop()
    }

    /// The node that owns a source is killed: a new size is answered by another node, later sizes
    /// stay there, and the origin sees one more request.
    @Test(arguments: balancers) func aDeadNodesSourcesMoveToOneOtherNode(_ balancer: String) async throws {
        guard Fleet.available(balancer) else { return }
        let fleet = try await Fleet(balancer)
        let owner = try #require(try await fleet.get("photo.jpg", width: 20).node)
        let node = try #require(fleet.nodes.first { $0.name == owner })
        node.child.killHard()
        var answered: Set<String> = []
        for width in 21..<31 {
            let r = try await fleet.get("photo.jpg", width: width)
            #expect(r.status == 200)
            if let node = r.node { answered.insert(node) }
        }
        #expect(answered.count == 1 && !answered.contains(owner), "\(answered)")
        #expect(fleet.origin.requestCount("/photo.jpg") == 2)
        try await fleet.stop()
    }

    /// SIGTERM to one node while requests are running: none of them fails.
    @Test(arguments: balancers) func drainingANodeUnderLoadFailsNoRequest(_ balancer: String) async throws {
        guard Fleet.available(balancer) else { return }
        let fleet = try await Fleet(balancer)
        let statuses = Locked<[Int]>([])
        let drained = fleet.nodes[0].child.process
        let pid = drained.processIdentifier
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for i in 0..<60 {
                        let r = try await fleet.get("d\((worker * 60 + i) % 97).jpg", width: 10 + i % 20)
                        statuses.withLock { $0.append(r.status) }
                    }
                }
            }
            group.addTask {
                while statuses.withLock({ $0.count }) < 100 { await Task.yield() }
                kill(pid, SIGTERM)
            }
            try await group.waitForAll()
        }
        drained.waitUntilExit()
        #expect(drained.terminationStatus == 0)
        let all = statuses.withLock { $0 }
        #expect(
            all.count == 480 && all.allSatisfy { $0 == 200 }, "\(Dictionary(grouping: all) { $0 }.mapValues(\.count))")
        try await fleet.stop()
    }
}
