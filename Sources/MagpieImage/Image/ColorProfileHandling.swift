/// What decoding did with the source's colour profile (its ICC profile, or AVIF's CICP colours).
public enum ColorProfileHandling: Sendable, Hashable {
    /// The source had none: its pixels are taken as sRGB.
    case none
    /// The pixels were converted to sRGB through it (an sRGB profile converts nothing).
    case convertedToSRGB
    /// The pixels are as stored and ``Image/colorProfile`` holds it.
    case kept
    /// It could not be used (too large, malformed, for other colours than the pixels', refused by
    /// lcms2): the pixels are as stored, untagged.
    case ignored
}

extension Image {
    /// This image with `source`'s colour profile and its handling: what a processor keeps.
    func carryingColor(of source: Image) -> Image {
        var image = self
        image.colorProfile = source.colorProfile
        image.colorProfileHandling = source.colorProfileHandling
        return image
    }
}
