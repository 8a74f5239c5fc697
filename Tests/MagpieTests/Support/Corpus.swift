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

    /// A corpus folder beside the project: `shared/corpus` or `shared/corpus-webp-avif`.
    struct Set: Sendable {
        let name: String
        let directory: URL?

        init(_ name: String) {
            self.name = name
            // This file is <project>/Tests/MagpieTests/Support/Corpus.swift; the corpus sits
            // beside the project, in ../shared.
            var project = URL(fileURLWithPath: #filePath)
            for _ in 0..<4 { project = project.deletingLastPathComponent() }
            let dir = project.deletingLastPathComponent().appendingPathComponent("shared/\(name)")
            directory =
                FileManager.default.fileExists(atPath: dir.appendingPathComponent("MANIFEST.tsv").path) ? dir : nil
        }

        var isAvailable: Bool {
            if directory == nil {
                print(
                    "SKIPPED: corpus tests: ../shared/\(name) is absent (clone ../shared beside the project to run them)"
                )
            }
            return directory != nil
        }

        var rows: [Row] {
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
        }

        func bytes(_ path: String) throws -> [UInt8] {
            [UInt8](try Data(contentsOf: directory!.appendingPathComponent(path)))
        }
    }

    /// PngSuite, libjpeg-turbo and giflib samples, EXIF orientations, hostile and truncated files.
    static let main = Set("corpus")
    /// Real WebP and AVIF files.
    static let webpAvif = Set("corpus-webp-avif")

    static var directory: URL? { main.directory }
    static var isAvailable: Bool { main.isAvailable }
    static let rows: [Row] = main.rows
    static func bytes(_ path: String) throws -> [UInt8] { try main.bytes(path) }
}
