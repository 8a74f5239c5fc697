import Foundation
import Testing

/// The shared test corpus beside the project (`../shared/corpus`), read in place.
enum Corpus {
    struct Row: Sendable, CustomTestStringConvertible {
        let path: String
        let format: String
        let width: Int?
        let height: Int?
        let frames: Int?
        let expected: String
        let notes: String
        var testDescription: String { path }
    }

    static let directory: URL? = {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let dir = root.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        return FileManager.default.fileExists(atPath: dir.appendingPathComponent("MANIFEST.tsv").path) ? dir : nil
    }()

    static var isAvailable: Bool {
        if directory == nil {
            print("SKIPPED: corpus tests: ../shared/corpus is absent (clone ../shared beside the project to run them)")
        }
        return directory != nil
    }

    static let rows: [Row] = {
        guard let directory,
            let text = try? String(contentsOf: directory.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
        else { return [] }
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let c = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard c.count >= 6 else { return nil }
            return Row(
                path: c[0], format: c[1], width: Int(c[2]), height: Int(c[3]), frames: Int(c[4]), expected: c[5],
                notes: c.count > 8 ? c[8] : "")
        }
    }()

    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory!.appendingPathComponent(path)))
    }
}
