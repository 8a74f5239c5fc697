#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A source's bytes and what the response said about them.
struct LoadedSource: Sendable {
    var data: [UInt8]
    var validators: ResponseValidators
    /// What the response said about caching it, and when it arrived (`nil` for providers).
    var caching: (headers: HTTPCacheHeaders, receivedAt: Date)? = nil
    /// A conditional request was answered `304 Not Modified` (`data` is empty).
    var notModified = false
}

extension ImageManager {
    /// Turns a source into bytes: a download through the options' downloader (else the
    /// manager's), or the provider's bytes. The one loader the pipeline and the prefetcher share.
    /// - Throws: ``ImageDownloadError``, ``ImageRetrieveError/providerFailed(key:underlying:)``, or
    ///   `CancellationError`.
    /// With `revalidating`, a network source is asked conditionally (see
    /// ``DownloadOptions/revalidating``).
    func load(
        _ source: Source, options: ImageOptions, revalidating: ResponseValidators? = nil,
        report: @escaping @Sendable (Int, Int?) -> Void = { _, _ in }
    ) async throws -> LoadedSource {
        switch source {
        case .network(let url, _):
            var downloadOptions = options.downloadOptions
            downloadOptions.revalidating = revalidating
            let download = try await (options.request.downloader ?? downloader).download(
                url, options: downloadOptions, progress: report)
            return LoadedSource(
                data: download.data, validators: download.validators,
                caching: (download.cacheHeaders, download.receivedAt), notModified: download.notModified)
        case .provider(let provider):
            let data: [UInt8]
            do {
                data = try await provider.data()
            } catch is CancellationError {
                throw CancellationError()
            } catch let error as ImageDownloadError {
                throw error
            } catch {
                throw ImageRetrieveError.providerFailed(key: provider.cacheKey, underlying: error)
            }
            report(data.count, data.count)
            return LoadedSource(data: data, validators: ResponseValidators())
        }
    }
}
