import Foundation

/// The tables `scripts/thumbor-tables.py` writes from thumbor itself, in `Tests/fixtures/thumbor/`.
enum ThumborTables {
    static func load<T: Decodable>(_ name: String, as type: T.Type) -> T? {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("fixtures/thumbor/" + name)
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return (try? Data(contentsOf: url)).flatMap { try? decoder.decode(T.self, from: $0) }
    }
}
