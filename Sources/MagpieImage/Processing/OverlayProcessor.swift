/// Composites another image over this one: a watermark (imgproxy's `wm`, Kingfisher's
/// `OverlayImageProcessor`). The overlay is decoded once, when the processor is made, and kept;
/// its identifier names it by a digest of its pixels.
public struct OverlayProcessor: ImageProcessor {
    /// The overlay (its first frame is used).
    public let overlay: Image
    /// Where it sits: (0, 0) top left, (1, 1) bottom right, `.center` in the middle.
    public var anchor: CropAnchor
    /// Pixels inward from the edge it is anchored to (to the right and down from the centre).
    public var offsetX: Int
    public var offsetY: Int
    /// 0–1, multiplying the overlay's alpha.
    public var opacity: Double
    /// Scale the overlay to fit this fraction (0–1] of the base's width and height; `nil` keeps
    /// its size.
    public var scale: Double?
    private let digest: String

    public init(
        _ overlay: Image, anchor: CropAnchor = .bottomRight, offsetX: Int = 0, offsetY: Int = 0, opacity: Double = 1,
        scale: Double? = nil
    ) {
        let first = overlay.firstFrame
        self.overlay = first
        self.anchor = anchor
        self.offsetX = offsetX
        self.offsetY = offsetY
        self.opacity = opacity
        self.scale = scale
        let hex = Digest.md5(first.pixels).map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }
        digest = "\(first.width)x\(first.height):" + hex.joined()
    }

    /// The overlay decoded from the image file at `path`, once.
    /// - Throws: ``ImageCodecError/decodingFailed(_:)`` when it does not decode.
    public init(
        contentsOfFile path: String, anchor: CropAnchor = .bottomRight, offsetX: Int = 0, offsetY: Int = 0,
        opacity: Double = 1, scale: Double? = nil
    ) throws(ImageCodecError) {
        let image = try Image(contentsOfFile: path, options: DecodingOptions(frames: .single(0)))
        self.init(image, anchor: anchor, offsetX: offsetX, offsetY: offsetY, opacity: opacity, scale: scale)
    }

    public var identifier: String {
        let s = scale.map { ",scale:\($0)" } ?? ""
        return "magpie.overlay(\(digest),\(anchor.name),\(offsetX),\(offsetY),\(opacity)\(s))"
    }

    public func process(_ input: ImageProcessingInput, firstFrameOnly: Bool) throws -> Image {
        let base = try input.image(firstFrameOnly: firstFrameOnly) { $0 }
        guard opacity >= 0, opacity <= 1 else { throw CorePixels.invalidGeometry }
        var mark = overlay
        if let scale {
            guard scale > 0, scale <= 1 else { throw CorePixels.invalidGeometry }
            let box = (w: Double(base.width) * scale, h: Double(base.height) * scale)
            let k = min(box.w / Double(mark.width), box.h / Double(mark.height))
            let w = max(1, Int((Double(mark.width) * k).rounded()))
            let h = max(1, Int((Double(mark.height) * k).rounded()))
            if w != mark.width || h != mark.height { mark = try mark.resampled(width: w, height: h) }
        }
        func place(_ slack: Int, _ fraction: Double, _ offset: Int) -> Int {
            let at = Int((Double(slack) * fraction).rounded())
            let (moved, overflow) =
                fraction > 0.5 ? at.subtractingReportingOverflow(offset) : at.addingReportingOverflow(offset)
            return overflow ? (offset > 0 ? Int.max / 2 : Int.min / 2) : moved
        }
        let x = place(base.width - mark.width, anchor.x, offsetX)
        let y = place(base.height - mark.height, anchor.y, offsetY)
        return try base.compositing(mark, x: x, y: y, opacity: opacity)
    }
}
