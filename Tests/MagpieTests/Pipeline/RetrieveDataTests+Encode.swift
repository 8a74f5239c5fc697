import Foundation
import MagpieLoopback
import MagpieTestSupport
import Synchronization
import Testing

@testable import Magpie

/// A serializer that counts its encodes (the default one underneath).
private final class CountingSerializer: CacheSerializer, Sendable {
    let encodes = Mutex(0)
    private let base = DefaultCacheSerializer()
    func data(for image: Image, original: [UInt8]?, isProcessed: Bool) throws -> [UInt8] {
        encodes.withLock { $0 += 1 }
        return try base.data(for: image, original: original, isProcessed: isProcessed)
    }
    func image(from data: [UInt8], options: DecodingOptions) throws -> Image {
        try base.image(from: data, options: options)
    }
}

extension RetrieveDataTests {
    /// A new variant is encoded once, in the job that made it, and the bytes returned are those
    /// written, with no read back of the entry: a write that fails (an entry over the cache's
    /// size cap) leaves the bytes to return without a second encode.
    @Test func aNewVariantIsEncodedOnceAndServedAsStored() async throws {
        let loader = ScriptedDataLoader { _ in
            .respond(
                status: 200,
                headers: [
                    ("Content-Type", "image/jpeg"), ("Cache-Control", "max-age=600"),
                    ("Last-Modified", "Wed, 21 Oct 2026 07:28:00 GMT"),
                ], body: NetFixture.jpeg)
        }
        let h = try PipelineHarness(transports: ["http": loader])
        let url = loader.url("/e.jpg")
        let serializer = CountingSerializer()
        let thumb = options {
            $0.processor = DownsamplingProcessor(width: 24, height: 24)
            $0.cache.serializer = serializer
        }
        let made = try await h.manager.retrieveData(with: .network(url), options: thumb)
        #expect(made.cacheType == .none && serializer.encodes.withLock { $0 } == 1)
        #expect(made.lastModified == "Wed, 21 Oct 2026 07:28:00 GMT")
        let key = h.manager.cacheKey(for: .network(url), options: thumb)
        let entry = try #require(
            try await h.cache.diskEntry(
                forKey: key, processorIdentifier: thumb.processorIdentifier, policy: thumb.cache.policy,
                allowingStale: false))
        #expect(entry.payload == made.data, "the bytes returned are the entry's")
        #expect(try ImageInfo(probing: made.data).width == 24)

        // The entry cannot be written: the bytes are still returned, encoded once.
        let small = try ImageCache(
            memory: .init(totalCostLimit: 1 << 20, cleanInterval: nil),
            disk: .init(directory: h.dir.path("small"), sweepInterval: nil, maxEntrySize: 100), clock: h.clock)
        var unwritable = thumb
        unwritable.cache.target = small
        unwritable.processor = DownsamplingProcessor(width: 20, height: 20)
        let before = serializer.encodes.withLock { $0 }
        let got = try await h.manager.retrieveData(with: .network(url), options: unwritable)
        #expect(try ImageInfo(probing: got.data).width == 20 && got.cacheType == .none)
        #expect(serializer.encodes.withLock { $0 } == before + 1, "not encoded again for want of an entry")
        await small.shutdown()
        try await h.finish()
    }
}
