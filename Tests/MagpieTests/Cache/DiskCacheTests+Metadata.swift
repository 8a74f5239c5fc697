import Foundation
import MagpieTestSupport
import Testing

@testable import Magpie

/// A hit carries what the entry keeps of its response (validators, content type, variant), on
/// the first read of a file (header parsed whole) and on later ones (the index's fast path), so
/// a revalidation needs no second open.
extension DiskCacheTests {
    @Test func aHitCarriesItsValidators() throws {
        let dir = try TemporaryDirectory()
        let full = DiskEntryMetadata(
            etag: "\"v7\"", lastModified: "Thu, 18 Aug 2050 02:01:18 GMT", contentType: "image/webp",
            variant: "accept;abc")
        let cache = try makeCache(dir)
        try cache.store([1, 2, 3], forKey: "full", metadata: full)
        try cache.store([4], forKey: "bare")
        // This process wrote them: reads take the index's fast path.
        #expect(try cache.entry(forKey: "full")?.metadata == full)
        #expect(try cache.entry(forKey: "bare")?.metadata == DiskEntryMetadata())
        // Another process (a cache opened on the same folder) reads each header the first time.
        let other = try makeCache(dir)
        let first = try #require(try other.entry(forKey: "full"))
        #expect(first.metadata == full && first.variant == "accept;abc" && first.payload == [1, 2, 3])
        #expect(try other.entry(forKey: "full")?.metadata == full, "and again, from its index")
        #expect(try other.entry(forKey: "bare")?.metadata.canRevalidate == false)
    }
}
