import Foundation

/// Retrievals written with the `make` DSL (``ImageOptionsMaker``): the options a closure records,
/// over the manager's defaults or a preset.
extension ImageManager {
    /// The image for `url`, with the options a `make` closure records (the constraint DSL).
    public func image(
        from url: URL, _ configure: (ImageOptionsMaker) -> Void = { _ in }
    ) async throws -> Image {
        let maker = ImageOptionsMaker(base: defaultOptions)
        configure(maker)
        let options = try maker.build()
        return try await retrieveImage(with: .network(url), options: options).image
    }

    /// The image for `url` with `options` (a preset) updated by a `make` closure.
    public func image(
        from url: URL, options: ImageOptions, _ configure: (ImageOptionsMaker) -> Void = { _ in }
    ) async throws -> Image {
        let maker = ImageOptionsMaker(base: options)
        configure(maker)
        return try await retrieveImage(with: .network(url), options: maker.build()).image
    }
}
