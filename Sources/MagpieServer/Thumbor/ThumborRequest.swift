import Magpie

/// A thumbor URL as its filters leave it: the geometry and what the filters set (thumbor's
/// `context.request` after the pre-load phase), and the processors the post-transform filters
/// add, in the URL's order.
struct ThumborRequest: Sendable {
    var geometry: ThumborGeometry
    /// `quality(n)`.
    var quality: Int?
    /// `format(f)`, as thumbor names it (`jpeg`, `jpg`, `png`, `gif`, `webp`, `avif`, `heic`, `heif`).
    var format: String?
    /// `max_age(s)`.
    var maxAge: Int?
    /// `max_bytes(n)`: a JPEG or WebP re-encoded at lower qualities until it fits.
    var maxBytes: Int?
    /// `autojpg(b)`: thumbor's `auto_png_to_jpg` override (nil: none given).
    var autoJPG: Bool?
    /// `strip_icc()`: the result carries no colour profile.
    var stripsICC = false
    /// `strip_exif()` (results carry no EXIF here unless the server keeps copyright).
    var stripsExif = false
    /// `no_upscale()`: the target no larger than the source.
    var noUpscale = false
    /// The post-transform filters' work.
    var after: [any ImageProcessor] = []
    /// Why a filter could not run, where thumbor's would raise (its 500): the request is refused.
    var failure: String?

    init(_ path: ThumborPath, settings: ThumborSettings) {
        var g = ThumborGeometry()
        (g.width, g.height, g.crop) = (path.width, path.height, path.crop)
        (g.fitIn, g.adaptive, g.full) = (path.fitIn, path.adaptive, path.full)
        (g.halign, g.valign) = (path.halign, path.valign)
        (g.flipHorizontally, g.flipVertically) = (path.horizontalFlip, path.verticalFlip)
        (g.maxWidth, g.maxHeight) = (settings.maxWidth, settings.maxHeight)
        geometry = g
        ThumborFilter.apply(path.filters, allowed: settings.filters, to: &self)
    }

    /// Names everything above that changes the result, for the variant's name.
    var name: String {
        var parts = [geometry.key]
        if let quality { parts.append("q\(quality)") }
        if let format { parts.append("f:\(format)") }
        if stripsICC { parts.append("strip_icc") }
        if noUpscale { parts.append("no_upscale") }
        parts += after.map(\.identifier)
        return parts.joined(separator: "|")
    }
}
