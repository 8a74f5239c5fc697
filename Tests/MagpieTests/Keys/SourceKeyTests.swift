import Foundation
import MagpieLoopback
import MagpieTestSupport
import Testing

@testable import Magpie

/// Sources and the keys they are cached under (issue 11, item 8).
@Suite struct SourceKeyTests {
    /// A placeholder URL that is not a valid http(s) URL is the modifier's to replace: it is
    /// checked after the modifier, once, and the cache entry stays under the URL given.
    @Test func aRequestModifierMayReplaceAnInvalidURL() async throws {
        try await withServer(imageServer()) { server in
            let h = try PipelineHarness()
            let real = NetFixture.url(server, "/img/placeholder.jpg")
            for given in ["http:///no-host/42.jpg", "http://example.com:99999/42.jpg", "magpie-placeholder:42"] {
                let placeholder = try #require(URL(string: given))
                var options = ImageOptions()
                options.request.modifier = RequestModifier { request in
                    var request = request
                    request.url = real
                    return request
                }
                options.readPolicy = .refresh
                let result = try await h.manager.retrieveImage(with: .network(placeholder), options: options)
                #expect(result.image.width == 96, "\(given)")
                #expect(h.cache.imageCachedType(forKey: given) == .memory)
                // Without the modifier the same URL is still refused, before any connection.
                await #expect(throws: ImageDownloadError.self) {
                    _ = try await h.manager.downloader.download(placeholder)
                }
            }
            #expect(server.requestCount("/img/placeholder.jpg") == 3)
            // A modifier that leaves it invalid gets the URL error, not a connection.
            var keeps = ImageOptions()
            keeps.request.modifier = RequestModifier { $0 }
            await #expect(throws: ImageDownloadError.invalidURL("http://example.com:99999/x")) {
                _ = try await h.manager.downloader.download(
                    URL(string: "http://example.com:99999/x")!, options: keeps.downloadOptions)
            }
            try await h.finish()
        }
    }

    /// The local-file provider and a `file:` URL of the same path share one entry, whatever
    /// characters the path holds.
    @Test func aLocalFileHasOneKeyWhicheverWayItIsNamed() async throws {
        let h = try PipelineHarness()
        for name in ["with space.png", "per%cent.png", "hash#tag.png", "ü.png"] {
            let path = h.dir.path(name)
            try Data(NetFixture.png).write(to: URL(fileURLWithPath: path))
            let provider = LocalFileImageDataProvider(path: path)
            let url = URL(fileURLWithPath: path)
            #expect(h.manager.cacheKey(for: .provider(provider)) == h.manager.cacheKey(for: .network(url)), "\(name)")
            _ = try await h.manager.retrieveImage(with: .provider(provider))
            var cached = ImageOptions()
            cached.readPolicy = .cacheOnly
            let again = try await h.manager.retrieveImage(with: .network(url), options: cached)
            #expect(again.cacheType == .memory && again.image.width == 40, "\(name)")
        }
        try await h.finish()
    }
}
