import Foundation

/// The `magpie` binary built beside the test bundle, run as a user would.
enum CLI {
    static let binary: URL = {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // The runner may live inside the .xctest bundle on some platforms.
        while !FileManager.default.isExecutableFile(atPath: dir.appendingPathComponent("magpie").path),
            dir.path != "/"
        {
            dir.deleteLastPathComponent()
        }
        return dir.appendingPathComponent("magpie")
    }()

    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Runs `script` under `/bin/sh` with `$0` the magpie binary and `$1…` the arguments.
    static func runShell(_ script: String, _ arguments: [String]) throws -> Result {
        try run(arguments: ["-c", script, binary.path] + arguments, executable: URL(fileURLWithPath: "/bin/sh"))
    }

    static func run(_ arguments: [String]) throws -> Result { try run(arguments: arguments, executable: binary) }

    static func run(arguments: [String], executable: URL) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }
}

extension CLI {
    /// Runs the CLI on a dispatch thread, so the cooperative pool stays free for servers in the test.
    static func runAsync(_ arguments: [String]) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Swift.Result { try run(arguments) }) }
        }
    }
}
