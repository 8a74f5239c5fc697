/// Finding and keeping parts of an image: trimming a uniform border, pixelating, the window a
/// smart crop keeps.
extension Image {
    /// The rectangle of the first frame that holds everything unlike the background: `color`, or
    /// the top-left pixel's when `nil`. A pixel is background when each channel (alpha included)
    /// is within `threshold` (0–255) of it, or when both are fully transparent. `equalHorizontal`
    /// and `equalVertical` cut the lesser margin from both sides. All background: the whole image.
    public func trimBounds(
        threshold: Int = 10, color: Color? = nil, equalHorizontal: Bool = false, equalVertical: Bool = false
    ) throws(ImageCodecError) -> PixelRect {
        let r = try CoreEffects.trimBounds(
            frames[0].pixels, width, height, threshold: threshold, color: color?.rgba, equalHorizontal: equalHorizontal,
            equalVertical: equalVertical)
        return PixelRect(x: r.x, y: r.y, width: r.width, height: r.height)
    }

    /// The image with its uniform border cut away (see ``trimBounds(threshold:color:equalHorizontal:equalVertical:)``).
    public func trimmed(
        threshold: Int = 10, color: Color? = nil, equalHorizontal: Bool = false, equalVertical: Bool = false
    ) throws(ImageCodecError) -> Image {
        let r = try trimBounds(
            threshold: threshold, color: color, equalHorizontal: equalHorizontal, equalVertical: equalVertical)
        return r.width == width && r.height == height ? self : try cropped(to: r)
    }

    /// Every `size × size` block (clipped at the right and bottom) filled with its mean colour,
    /// weighted by alpha. `size` 1 changes nothing.
    public func pixelated(size: Int) throws(ImageCodecError) -> Image {
        guard size > 1 else {
            if size == 1 { return self }
            throw CorePixels.invalidGeometry
        }
        return try mapFrames(width: width, height: height) { (p) throws(ImageCodecError) in
            try CoreEffects.pixelate(p, width, height, size: size)
        }
    }

    /// The `width × height` window a smart crop keeps (``CropAnchor/smart``): the one holding the
    /// most edges, skin tones and saturated colour of the first frame; the centre when nothing
    /// stands out.
    public func attentionWindow(width: Int, height: Int) throws(ImageCodecError) -> PixelRect {
        let (x, y) = try CoreEffects.attentionOrigin(
            frames[0].pixels, self.width, self.height, cropWidth: width, cropHeight: height)
        return PixelRect(x: x, y: y, width: width, height: height)
    }
}
