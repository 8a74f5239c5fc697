import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie

/// Answers each name from a script, counting the questions: a name may answer differently each
/// time it is asked (a rebinding DNS server).
final class ScriptedResolver: HostResolver {
    private let answers: Locked<[String: [[String]]]>
    private let asked = Locked<[String: Int]>([:])

    init(_ answers: [String: [[String]]]) { self.answers = Locked(answers) }

    func addresses(of host: String, port: Int) async throws -> [IPAddress] {
        let n = asked.withLock { a -> Int in
            defer { a[host, default: 0] += 1 }
            return a[host, default: 0]
        }
        guard let script = answers.withLock({ $0[host] }), !script.isEmpty else {
            throw ImageDownloadError.connectionFailed("cannot resolve \(host)")
        }
        return script[min(n, script.count - 1)].compactMap(IPAddress.init)
    }

    func timesAsked(_ host: String) -> Int { asked.withLock { $0[host, default: 0] } }
}

/// The address policy on real connections over loopback: 127.0.0.2 is the allowed origin ("the
/// internet"), 127.0.0.1 the server's own network, listening on the same port so that a request
/// that went to the wrong address would reach it. Its connection count must stay zero.
@Suite struct AddressPolicyTests {
    /// An origin on 127.0.0.2 and a victim on 127.0.0.1, on one port.
    static func withOriginAndVictim(
        _ origin: @escaping LoopbackServer.Handler,
        _ body: (_ origin: LoopbackServer, _ victim: LoopbackServer) async throws -> Void
    ) async throws {
        var pair: (LoopbackServer, LoopbackServer)?
        for _ in 0..<10 where pair == nil {
            let server = try await LoopbackServer(host: "127.0.0.2", handler: origin)
            // The port may be taken on 127.0.0.1: then try another.
            if let victim = try? await LoopbackServer(
                host: "127.0.0.1", port: server.port,
                handler: { _ in
                    .ok(NetFixture.png, contentType: "image/png")
                })
            {
                pair = (server, victim)
            } else {
                try await server.shutdown()
            }
        }
        let (server, victim) = try #require(pair, "no port free on both 127.0.0.1 and 127.0.0.2")
        do {
            try await body(server, victim)
        } catch {
            try await victim.shutdown()
            try await server.shutdown()
            throw error
        }
        try await victim.shutdown()
        try await server.shutdown()
    }

    static func downloader(_ policy: AddressPolicy, _ resolver: ScriptedResolver, pin: Duration = .seconds(60))
        -> ImageDownloader
    {
        var config = ImageDownloader.Config(retryStrategy: .times(2))
        config.addressPolicy = policy
        config.resolver = resolver
        config.pinLifetime = pin
        return ImageDownloader(config: config, sleep: { _ in })
    }

    static func denial(_ downloader: ImageDownloader, _ url: String) async -> ImageDownloadError? {
        do {
            _ = try await downloader.download(URL(string: url)!)
            return nil
        } catch {
            return error as? ImageDownloadError
        }
    }

    static let origin: LoopbackServer.Handler = { request in
        switch request.path {
        case "/to-victim": return .respond(status: 302, headers: [("Location", request.header("X-Victim") ?? "/")])
        default: return .ok(NetFixture.jpeg, contentType: "image/jpeg")
        }
    }

    @Test func aNameThatRebindsToADeniedAddressNeverReachesIt() async throws {
        try await Self.withOriginAndVictim(Self.origin) { origin, victim in
            let resolver = ScriptedResolver(["rebind.test": [["127.0.0.2"], ["127.0.0.1"]]])
            let policy = try AddressPolicy.publicOnly.allowing(networks: ["127.0.0.2/32"])
            // A pin of zero: every request resolves the name again.
            let downloader = Self.downloader(policy, resolver, pin: .zero)
            let url = "http://rebind.test:\(origin.port)/a.jpg"
            #expect(try await downloader.download(URL(string: url)!).data == NetFixture.jpeg)
            #expect(await Self.denial(downloader, url) == .addressDenied(host: "rebind.test", reason: "loopback"))
            #expect(await Self.denial(downloader, url) == .addressDenied(host: "rebind.test", reason: "loopback"))
            #expect(resolver.timesAsked("rebind.test") == 3, "denied every time: not remembered as a failure")
            #expect(downloader.statistics.retries == 0, "a denial is not retried")
            #expect(origin.requestCount("/a.jpg") == 1 && victim.connectionsAccepted == 0)
            try await downloader.shutdown()
        }
    }

    @Test func aMixedAnswerIsRefusedWholeAndNothingReachesEither() async throws {
        try await Self.withOriginAndVictim(Self.origin) { origin, victim in
            let resolver = ScriptedResolver(["mixed.test": [["127.0.0.2", "127.0.0.1"]]])
            let policy = try AddressPolicy.publicOnly.allowing(networks: ["127.0.0.2/32"])
            let downloader = Self.downloader(policy, resolver)
            let error = await Self.denial(downloader, "http://mixed.test:\(origin.port)/a.jpg")
            #expect(error == .addressDenied(host: "mixed.test", reason: "loopback"))
            #expect(error?.description.contains("127.0.0") == false, "the resolved address is not disclosed")
            #expect(origin.connectionsAccepted == 0 && victim.connectionsAccepted == 0)
            try await downloader.shutdown()
        }
    }

    @Test func everyRedirectHopIsJudged() async throws {
        try await Self.withOriginAndVictim(Self.origin) { origin, victim in
            let resolver = ScriptedResolver(["origin.test": [["127.0.0.2"]], "inside.test": [["127.0.0.1"]]])
            let policy = try AddressPolicy.publicOnly.allowing(networks: ["127.0.0.2/32"])
            let downloader = Self.downloader(policy, resolver)
            for (target, host) in [
                ("http://127.0.0.1:\(victim.port)/secret", "127.0.0.1"),
                ("http://inside.test:\(victim.port)/secret", "inside.test"),
                ("http://[::ffff:127.0.0.1]:\(victim.port)/secret", "::ffff:127.0.0.1"),
            ] {
                var options = DownloadOptions(headers: [HTTPHeaderField("X-Victim", target)])
                options.retryStrategy = .times(2)
                do {
                    _ = try await downloader.download(
                        URL(string: "http://origin.test:\(origin.port)/to-victim")!, options: options)
                    Issue.record("the redirect to \(target) was followed")
                } catch let error as ImageDownloadError {
                    guard case .addressDenied(let denied, "loopback") = error else {
                        Issue.record("\(target): \(error)")
                        continue
                    }
                    #expect(denied.trimmingCharacters(in: CharacterSet(charactersIn: "[]")) == host)
                }
            }
            #expect(origin.requestCount("/to-victim") == 3 && victim.connectionsAccepted == 0)
            try await downloader.shutdown()
        }
    }

    @Test func literalFormsAreJudgedAsTheAddressTheSocketWouldUse() async throws {
        try await Self.withOriginAndVictim(Self.origin) { origin, victim in
            let port = victim.port
            let forms = [
                "127.0.0.1", "127.1", "2130706433", "0x7f.0.0.1", "0x7f000001", "0177.0.0.1", "127.0.0.1.", "localhost",
                "localhost.", "[::ffff:7f00:1]", "[::ffff:127.0.0.1]", "[::127.0.0.1]", "[::1]", "0.0.0.0", "0", "[::]",
            ]
            // Resolved by the system, as the HTTP client would: each form ends as a loopback or
            // unspecified address, and the policy refuses it before any connection.
            let strict = Self.downloader(.publicOnly, ScriptedResolver([:]))
            var system = ImageDownloader.Config(retryStrategy: .times(1))
            system.addressPolicy = .publicOnly
            let downloader = ImageDownloader(config: system, sleep: { _ in })
            for form in forms {
                let error = await Self.denial(downloader, "http://\(form):\(port)/x.png")
                switch error {
                case .addressDenied(_, let reason): #expect(["loopback", "unspecified"].contains(reason), "\(form)")
                case .invalidURL: break  // a form the URL parser refuses never gets as far as a socket
                default: Issue.record("\(form): \(String(describing: error))")
                }
            }
            #expect(victim.connectionsAccepted == 0 && origin.connectionsAccepted == 0)
            // The same forms with loopback allowed: the ones that parse reach the server.
            var open = ImageDownloader.Config()
            open.addressPolicy = try AddressPolicy.publicOnly.allowing(networks: [
                "127.0.0.0/8", "::ffff:127.0.0.0/104",
            ])
            let allowed = ImageDownloader(config: open)
            var reached = 0
            for form in ["127.1", "2130706433", "0x7f.0.0.1", "[::ffff:127.0.0.1]"] {
                if (try? await allowed.download(URL(string: "http://\(form):\(port)/x.png")!)) != nil { reached += 1 }
            }
            #expect(reached >= 3 && victim.connectionsAccepted >= 1)
            try await strict.shutdown()
            try await downloader.shutdown()
            try await allowed.shutdown()
        }
    }

    @Test func theDefaultRefusesLinkLocalAndPortsCanBeRestricted() async throws {
        let downloader = ImageDownloader(config: .init(retryStrategy: .times(2)), sleep: { _ in })
        for url in [
            "http://169.254.169.254/latest/meta-data/", "http://[fe80::1]/", "http://[::ffff:169.254.169.254]/",
            "http://[64:ff9b::a9fe:a9fe]/",
        ] {
            #expect(await Self.denial(downloader, url)?.description.contains("link-local") == true, "\(url)")
        }
        #expect(downloader.statistics.retries == 0)
        try await downloader.shutdown()
        try await Self.withOriginAndVictim(Self.origin) { origin, victim in
            let resolver = ScriptedResolver(["origin.test": [["127.0.0.2"]]])
            let policy = try AddressPolicy.publicOnly.allowing(networks: ["127.0.0.2/32"]).allowing(ports: [80, 443])
            let ports = Self.downloader(policy, resolver)
            #expect(
                await Self.denial(ports, "http://origin.test:\(origin.port)/a.jpg")
                    == .addressDenied(host: "origin.test", reason: "port \(origin.port)"))
            #expect(resolver.timesAsked("origin.test") == 0 && origin.connectionsAccepted == 0)
            try await ports.shutdown()
        }
    }

    @Test func eachHostKeepsItsOwnConnections() async throws {
        try await Self.withOriginAndVictim(Self.origin) { origin, victim in
            // Two names on one address: a pooled connection of one never carries the other's request.
            let resolver = ScriptedResolver(["a.test": [["127.0.0.2"]], "b.test": [["127.0.0.2"]]])
            let policy = try AddressPolicy.publicOnly.allowing(networks: ["127.0.0.2/32"])
            let downloader = Self.downloader(policy, resolver)
            for name in ["a", "b", "a", "b", "a"] {
                _ = try await downloader.download(URL(string: "http://\(name).test:\(origin.port)/\(name).jpg")!)
            }
            #expect(origin.requestCount("/a.jpg") == 3 && origin.requestCount("/b.jpg") == 2)
            #expect(origin.connectionsAccepted == 2, "one connection per host, each reused")
            #expect(resolver.timesAsked("a.test") == 1 && resolver.timesAsked("b.test") == 1, "pinned: resolved once")
            #expect(victim.connectionsAccepted == 0)
            try await downloader.shutdown()
        }
    }
}
