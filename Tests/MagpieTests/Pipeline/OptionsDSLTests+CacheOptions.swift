import Foundation
import MagpieTestSupport
import Testing

@testable import Magpie

extension OptionsDSLTests {
    /// Cache options compare field by field: a serializer by its type and value, caches by
    /// identity; equal options hash alike (the coalescer keys flights by them).
    @Test func cacheOptionsCompareSerializersByTypeAndValue() throws {
        func with(_ serializer: (any CacheSerializer)?, key: String? = nil) -> ImageOptions.CacheOptions {
            var cache = ImageOptions.CacheOptions()
            cache.serializer = serializer
            cache.key = key
            return cache
        }
        let q80 = with(DefaultCacheSerializer(jpegQuality: 80))
        #expect(
            q80 == with(DefaultCacheSerializer(jpegQuality: 80))
                && q80.hashValue == with(DefaultCacheSerializer(jpegQuality: 80)).hashValue)
        #expect(q80 != with(DefaultCacheSerializer(jpegQuality: 70)))
        #expect(q80 != with(FormatIndicatedCacheSerializer(format: .png())))
        #expect(q80 != with(nil) && with(nil) == with(nil))
        #expect(with(nil, key: "a") != with(nil, key: "b"))
        // One that is not Equatable: by type and description.
        struct Described: CacheSerializer, CustomStringConvertible {
            var description: String
            func data(for image: Image, original: [UInt8]?, isProcessed: Bool) throws -> [UInt8] { [] }
            func image(from data: [UInt8], options: DecodingOptions) throws -> Image { try Image(decoding: data) }
        }
        #expect(with(Described(description: "a")) == with(Described(description: "a")))
        #expect(with(Described(description: "a")) != with(Described(description: "b")))
        let dir = try TemporaryDirectory()
        let one = try ImageCache(
            memory: .init(cleanInterval: nil), disk: .init(directory: dir.path("1"), sweepInterval: nil))
        var a = ImageOptions.CacheOptions()
        a.target = one
        var b = ImageOptions.CacheOptions()
        b.target = one
        #expect(a == b && a.hashValue == b.hashValue && a != ImageOptions.CacheOptions())
    }
}
