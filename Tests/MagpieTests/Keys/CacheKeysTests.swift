import Foundation
import Testing

@testable import Magpie

/// The rules of ``CacheKeys``, the one owner of cache keys.
@Suite struct CacheKeysTests {
    @Test func fileNamesAreMD5Hex() {
        #expect(CacheKeys.md5Hex("") == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(CacheKeys.md5Hex("message digest") == "f96b697d7cb7938d525a2f31aaf161d0")
        #expect(
            CacheKeys.fileName(for: "https://example.com/a.png", pathExtension: "png")
                == CacheKeys.md5Hex("https://example.com/a.png") + ".png")
        #expect(CacheKeys.fileName(for: "k", pathExtension: "") == CacheKeys.md5Hex("k"))
        #expect(CacheKeys.md5(Array("abc".utf8)) == Array(CacheKeys.md5Hex("abc").utf8).chunked2.map { $0 })
    }

    @Test func processedKeysAndIdentifiers() {
        #expect(CacheKeys.processed("u", processorIdentifier: nil) == "u")
        #expect(CacheKeys.processed("u", processorIdentifier: "") == "u")
        #expect(CacheKeys.processed("u", processorIdentifier: "p") == "u@p")
        #expect(ImageCache.cacheKey("u", processorIdentifier: "p") == "u@p", "the cache asks the owner")
        let crop = CroppingProcessor(width: 2, height: 2)
        #expect(CacheKeys.processorIdentifier(DefaultImageProcessor(), firstFrameOnly: false) == "")
        #expect(CacheKeys.processorIdentifier(DefaultImageProcessor(), firstFrameOnly: true) == "magpie.first-frame")
        #expect(
            CacheKeys.processorIdentifier(crop, firstFrameOnly: true) == crop.identifier + "|>magpie.first-frame")
        var options = ImageOptions()
        options.processor = crop
        options.onlyLoadFirstFrame = true
        #expect(options.processorIdentifier == crop.identifier + "|>magpie.first-frame", "the options ask the owner")
    }

    @Test func networkKeys() throws {
        let url = try #require(URL(string: "https://u:p@cdn.example/a.jpg?sig=1&w=2#frag"))
        let filter = CacheKeyFilter(droppingQueryItems: ["sig"])
        var secretReads = 0
        let plain = CacheKeys.network(
            url: url, explicitKey: nil, filter: filter, alsoDropping: [], credentials: [],
            secret: {
                secretReads += 1
                return []
            })
        #expect(plain == "https://cdn.example/a.jpg?w=2" && secretReads == 0, "no user info, no fragment, no sig")
        #expect(
            CacheKeys.network(
                url: url, explicitKey: nil, filter: filter, alsoDropping: ["w"], credentials: [], secret: { [] })
                == "https://cdn.example/a.jpg")
        #expect(
            CacheKeys.network(
                url: url, explicitKey: "mine", filter: filter, alsoDropping: [], credentials: [], secret: { [] })
                == "mine")
        let secret = [UInt8](repeating: 7, count: 32)
        let a = CacheKeys.network(
            url: url, explicitKey: nil, filter: filter, alsoDropping: [], credentials: ["authorization:A", "cookie:c"],
            secret: { secret })
        let b = CacheKeys.network(
            url: url, explicitKey: nil, filter: filter, alsoDropping: [], credentials: ["cookie:c", "authorization:A"],
            secret: { secret })
        let other = CacheKeys.network(
            url: url, explicitKey: nil, filter: filter, alsoDropping: [], credentials: ["authorization:B"],
            secret: { secret })
        #expect(a == b, "the order of credential lines does not matter")
        #expect(a.hasPrefix(plain + "#credentials=") && a.count == plain.count + 13 + 32 && a != other)
        #expect(
            a.dropFirst(plain.count + 13).allSatisfy { $0.isHexDigit && !$0.isUppercase },
            "a digest, not the credentials")
        let sharedHost = CacheKeyFilter(credentialIndependentHosts: ["CDN.example"])
        #expect(
            CacheKeys.network(
                url: url, explicitKey: nil, filter: sharedHost, alsoDropping: [], credentials: ["cookie:c"],
                secret: { secret }) == "https://cdn.example/a.jpg?sig=1&w=2", "the fragment never reaches the server")
    }
}

extension Array where Element == UInt8 {
    /// Hex digits, two by two, as bytes.
    fileprivate var chunked2: [UInt8] {
        func value(_ c: UInt8) -> UInt8 { c <= 57 ? c - 48 : c - 87 }
        return stride(from: 0, to: count, by: 2).map { value(self[$0]) << 4 | value(self[$0 + 1]) }
    }
}
