import ArgumentParser

#if canImport(Glibc)
    import Glibc
#endif

/// `magpie serve …`: runs `magpie-server` (installed beside `magpie`) with the same arguments.
/// The server is its own executable so that every other `magpie` command starts without
/// Hummingbird.
struct Serve: ParsableCommand {
    // No help names of its own: `magpie serve --help` reaches magpie-server, whose options these are.
    static let configuration = CommandConfiguration(
        abstract: "Run the image server (magpie-server, beside this binary) with these arguments.",
        discussion: "`magpie serve --help` prints magpie-server's options.", helpNames: [])

    @Argument(parsing: .allUnrecognized, help: "Arguments for magpie-server (see magpie-server --help).")
    var arguments: [String] = []

    func run() throws {
        let server = Self.serverPath()
        guard access(server, X_OK) == 0 else {
            throw CLIError("magpie-server is not installed beside magpie (looked for \(server))")
        }
        var argv: [UnsafeMutablePointer<CChar>?] = ([server] + arguments).map { strdup($0) } + [nil]
        execv(server, &argv)
        throw CLIError("cannot run \(server): \(String(cString: strerror(errno)))")
    }

    /// `magpie-server` in the folder of the running executable.
    static func serverPath() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let me =
            n > 0
            ? String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
        let folder = me.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return (folder.isEmpty ? "." : folder) + "/magpie-server"
    }
}
