import Foundation
import MagpieTestSupport
import Testing

@testable import Magpie

/// Runs a helper process and reads its output line by line (a gate: no sleeps).
final class ChildProcess {
    let process = Process()
    private let output = Pipe()
    private var buffer = Data()

    /// - Parameters:
    ///   - standardError: where the child's standard error goes (default: nowhere).
    ///   - environment: variables set for the child, beside this process's own.
    init(
        _ executable: URL, _ arguments: [String], standardError: FileHandle = .nullDevice,
        environment: [String: String] = [:]
    ) throws {
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardOutput = output
        process.standardError = standardError
        try process.run()
    }

    /// The next line of output, or `nil` at end of output.
    func readLine() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                return line
            }
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { return nil }
            buffer.append(chunk)
        }
    }

    func killHard() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

enum Helper {
    static var writer: URL { CLI.binary.deletingLastPathComponent().appendingPathComponent("magpie-cache-writer") }
}
