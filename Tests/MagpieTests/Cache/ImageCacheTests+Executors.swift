import Dispatch
import Foundation
import MagpieTestSupport
import Testing

@testable import Magpie
@testable import MagpieImage

/// Where the image cache's work runs: encoding a processed image and decoding a disk hit on the
/// decoding executor (CPU work, one per core), reads and writes on the I/O executor.
extension ImageCacheTests {
    /// A serializer that notes the dispatch queue each call ran on.
    struct QueueNoting: CacheSerializer {
        let seen: Recorder<String>
        func data(for image: Image, original: [UInt8]?, isProcessed: Bool) throws -> [UInt8] {
            seen.add("encode:" + Self.queue)
            return try DefaultCacheSerializer().data(for: image, original: original, isProcessed: isProcessed)
        }
        func image(from data: [UInt8], options: DecodingOptions) throws -> Image {
            seen.add("decode:" + Self.queue)
            return try DefaultCacheSerializer().image(from: data, options: options)
        }
        static var queue: String { BlockingExecutor.currentLabel ?? "none" }
    }

    @Test func encodingAndDecodingRunOnTheDecodingExecutor() async throws {
        let dir = try TemporaryDirectory()
        let seen = Recorder<String>()
        let cache = try ImageCache(
            memory: .init(totalCostLimit: 50_000_000, cleanInterval: nil),
            disk: .init(directory: dir.path("disk"), sweepInterval: nil), serializer: QueueNoting(seen: seen),
            io: BlockingExecutor(label: "test.io", width: 2), decoder: BlockingExecutor(label: "test.decode", width: 1))
        let (image, original) = try photo()
        // Waiting for the disk, and in the background.
        try await cache.store(image, original: original, forKey: "k", processorIdentifier: "p")
        try await cache.store(
            image, original: original, forKey: "b", processorIdentifier: "p", waitForDisk: false)
        await cache.shutdown()
        cache.clearMemoryCache()
        #expect(try await cache.retrieveImage(forKey: "k", processorIdentifier: "p").cacheType == .disk)
        #expect(seen.all.sorted() == ["decode:test.decode", "encode:test.decode", "encode:test.decode"])
        #expect(cache.statistics.bytesStoredToDisk > 0 && cache.diskStorage.count == 2)
    }
}
