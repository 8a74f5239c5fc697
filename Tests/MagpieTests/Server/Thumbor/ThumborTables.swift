import Foundation

/// The tables `scripts/thumbor-tables.py` writes from thumbor itself, in `Tests/fixtures/thumbor/`.
enum ThumborTables {
    static func load<T: Decodable>(_ name: String, as type: T.Type) -> T? {
        do { return try decode(name, as: type) } catch {
            print("\(name): \(error)")
            return nil
        }
    }

    /// As ``load(_:as:)``, the reason where it cannot be read.
    static func decode<T: Decodable>(_ name: String, as type: T.Type) throws -> T {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("fixtures/thumbor/" + name)
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(T.self, from: Data(contentsOf: url))
    }
}
