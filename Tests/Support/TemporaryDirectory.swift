import Foundation

/// A fresh temporary directory per test, removed afterwards.
public final class TemporaryDirectory {
    public let url: URL
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("magpie-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Makes the folder `name` inside, with `files` (name to bytes) in it; returns its path.
    @discardableResult
    public func folder(_ name: String, files: [String: [UInt8]] = [:]) throws -> String {
        let folder = path(name)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (file, bytes) in files { try Data(bytes).write(to: URL(fileURLWithPath: folder + "/" + file)) }
        return folder
    }
}
