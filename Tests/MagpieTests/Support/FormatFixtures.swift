import Foundation

/// The small format fixtures in `Tests/fixtures/formats` (made by its `make.sh` with ImageMagick,
/// heif-enc and Python; committed, so every machine has them).
enum FormatFixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("fixtures/formats")

    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    static func bytes(_ name: String) throws -> Data { try Data(contentsOf: directory.appendingPathComponent(name)) }
}
