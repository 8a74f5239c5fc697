import ArgumentParser
import Magpie
import MagpieServer

/// The image `wm` composites (imgproxy's `IMGPROXY_WATERMARK_PATH`, `_URL`, `_DATA`, `_OPACITY`),
/// read at start by ``ConfiguredImage`` and decoded once.
struct WatermarkOptions: ParsableArguments {
    @Option(name: .long, help: "The image `wm` composites (decoded once at start).")
    var watermarkPath: String?
    @Option(name: .long, help: "The watermark as a URL, fetched at start as a source is.")
    var watermarkURL: String?
    @Option(name: .long, help: "The watermark as base64 text.")
    var watermarkData: String?
    @Option(name: .long, help: "The watermark's opacity, above 0 to 1; a URL's `wm` opacity is multiplied by it.")
    var watermarkOpacity = 1.0

    func load(manager: ImageManager, maxBytes: Int) async throws -> OverlayProcessor? {
        guard watermarkOpacity > 0, watermarkOpacity <= 1 else {
            throw ValidationError("--watermark-opacity must be above 0 and at most 1")
        }
        guard
            let bytes = try await ConfiguredImage.load(
                path: watermarkPath, url: watermarkURL, data: watermarkData, flag: "--watermark", manager: manager,
                maxBytes: maxBytes)
        else { return nil }
        do {
            let image = try Image(decoding: bytes, options: DecodingOptions(frames: .single(0)))
            return OverlayProcessor(image, opacity: watermarkOpacity)
        } catch {
            throw ValidationError("--watermark: \(error)")
        }
    }
}
