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
}
