import Magpie

/// thumbor's geometry run on a source: the steps ``ThumborGeometry`` gives for the source's size
/// (read from its header, so nothing is decoded first) composed into one region of the source,
/// one size and one orientation. The source is decoded shrunk on load towards the size (never
/// enlarged while decoding), the region cut from it, resampled to the size where the two differ,
/// then flipped. Where thumbor's engine resizes, crops and flips one after another, the result
/// has its sizes to the pixel, from one resample (thumbor's Pillow resamples at each resize).
struct ThumborResize: ImageProcessor {
    let geometry: ThumborGeometry
    /// `RESPECT_ORIENTATION`: the EXIF orientation applied before the geometry (thumbor's default
    /// leaves the pixels as stored, and so the geometry is of the stored image).
    var appliesOrientation = false
    /// Shrink-on-load to twice the size (`.standard`), just past it (`.fast`), or none.
    var quality: DecodingOptions.Quality = .standard
    var keepsColorProfile = false
    /// `no_upscale()`: the target's sides at most the source's.
    var noUpscale = false
    /// The post-transform filters, in the URL's order.
    var after: [any ImageProcessor] = []

    /// Never used alone: the tagged processor around it names the variant.
    var identifier: String { "magpie.serve.thumbor" }

    /// What the steps come to: the region of the source (its pixels, fractional), the size of the
    /// result and its flips.
    struct Composed: Equatable {
        var x = 0.0
        var y = 0.0
        var width: Double
        var height: Double
        var outWidth: Int
        var outHeight: Int
        var flipHorizontally = false
        var flipVertically = false

        init(_ steps: [ThumborGeometry.Step], sourceWidth sw: Int, sourceHeight sh: Int) {
            (width, height, outWidth, outHeight) = (Double(sw), Double(sh), sw, sh)
            for step in steps {
                switch step {
                case .crop(let l, let t, let r, let b):
                    // Pillow crops to the integers; a side past the image stays inside it here.
                    var (l, r) = (min(max(0, l), outWidth), min(max(0, r), outWidth))
                    var (t, b) = (min(max(0, t), outHeight), min(max(0, b), outHeight))
                    guard r > l, b > t else { continue }
                    // A crop after a flip is of the flipped image.
                    if flipHorizontally { (l, r) = (outWidth - r, outWidth - l) }
                    if flipVertically { (t, b) = (outHeight - b, outHeight - t) }
                    let (sx, sy) = (width / Double(outWidth), height / Double(outHeight))
                    (x, y) = (x + Double(l) * sx, y + Double(t) * sy)
                    (width, height) = (Double(r - l) * sx, Double(b - t) * sy)
                    (outWidth, outHeight) = (r - l, b - t)
                case .resize(let w, let h): (outWidth, outHeight) = (max(1, w), max(1, h))
                case .flipHorizontally: flipHorizontally.toggle()
                case .flipVertically: flipVertically.toggle()
                }
            }
        }
    }

    func process(_ input: ImageProcessingInput, firstFrameOnly: Bool) throws -> Image {
        let (sw, sh): (Int, Int)
        var probe = DecodingOptions(appliesOrientation: appliesOrientation)
        probe.keepsColorProfile = keepsColorProfile
        switch input {
        case .data(let data): (sw, sh) = try Image.outputSize(of: data, options: probe)
        case .image(let image): (sw, sh) = (image.width, image.height)
        }
        var geometry = self.geometry
        if noUpscale {
            geometry.width = geometry.width.map { min($0, sw) }
            geometry.height = geometry.height.map { min($0, sh) }
        }
        let plan = try geometry.plan(sourceWidth: sw, sourceHeight: sh)
        let c = Composed(plan.steps, sourceWidth: sw, sourceHeight: sh)
        // The decode's scale per side: towards the result, never above 1 (an enlargement is of the
        // region alone, after the cut).
        let ax = min(1, Double(c.outWidth) / c.width)
        let ay = min(1, Double(c.outHeight) / c.height)
        let dw = max(1, Int((Double(sw) * ax).rounded()))
        let dh = max(1, Int((Double(sh) * ay).rounded()))
        // Shrunk on load only where that halves a side or more: a smaller change has no shrink
        // to gain (JPEG's DCT scaling keeps twice the output), and the decoder's own resample of
        // the whole image would blend pixels from outside the region into its edges (a crop's
        // border taking transparent columns it left out, say), where Pillow crops, then resizes.
        let whole = (dw == sw && dh == sh) || (ax >= 0.5 && ay >= 0.5)
        var decode = DownsamplingProcessor(
            width: whole ? 1 << 30 : dw, height: whole ? 1 << 30 : dh, mode: whole ? .fit : .exact,
            quality: quality, keepsColorProfile: keepsColorProfile)
        decode.appliesOrientation = appliesOrientation
        var image = try decode.process(input, firstFrameOnly: true)
        // The region in the decoded image's pixels, cut exactly, then resampled alone.
        let (fx, fy) = (Double(image.width) / Double(sw), Double(image.height) / Double(sh))
        let x0 = min(image.width - 1, max(0, Int((c.x * fx + 1e-6).rounded(.down))))
        let y0 = min(image.height - 1, max(0, Int((c.y * fy + 1e-6).rounded(.down))))
        let x1 = min(image.width, max(x0 + 1, Int(((c.x + c.width) * fx - 1e-6).rounded(.up))))
        let y1 = min(image.height, max(y0 + 1, Int(((c.y + c.height) * fy - 1e-6).rounded(.up))))
        let window = PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        if window.width != image.width || window.height != image.height { image = try image.cropped(to: window) }
        if c.outWidth != image.width || c.outHeight != image.height {
            image = try image.resampled(width: c.outWidth, height: c.outHeight)
        }
        if c.flipHorizontally || c.flipVertically {
            image = try image.transformed(.flip(horizontal: c.flipHorizontally, vertical: c.flipVertically))
        }
        for processor in after {
            if var fill = processor as? ThumborFill {
                // fill's box is the request's sides as the transform left them, for this source.
                fill.box = (plan.width, plan.height)
                image = try fill.process(.image(image), firstFrameOnly: true)
            } else {
                image = try processor.process(.image(image), firstFrameOnly: true)
            }
        }
        return image
    }
}
