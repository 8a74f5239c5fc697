import Magpie

extension Variant {
    /// The processors after the resize, in imgproxy's order: rotate and flip (`turning`: when no
    /// resize does it), blur, sharpen, colour, padding, background, watermark.
    static func effects(_ e: EffectOptions, dpr: Int, watermark: OverlayProcessor?, turning: Bool)
        -> [any ImageProcessor]
    {
        var chain: [any ImageProcessor] = []
        if turning && e.orientation != .up { chain.append(TransformProcessor(e.orientation)) }
        if let blur = e.blur, blur > 0 { chain.append(BlurProcessor(sigma: blur)) }
        if let sigma = e.sharpen, sigma > 0 {
            // imgproxy's `sh` is `vips_sharpen` with that sigma and libvips's other defaults.
            var s = Sharpening.afterResize
            s.sigma = sigma
            chain.append(SharpenProcessor(s))
        }
        let color = ColorAdjustment(saturation: e.saturation, contrast: e.contrast, brightness: Double(e.brightness))
        if !color.isIdentity { chain.append(ColorProcessor(color)) }
        if let p = e.padding, p.contains(where: { $0 > 0 }) {
            chain.append(
                PaddingProcessor(
                    top: p[0] * dpr, right: p[1] * dpr, bottom: p[2] * dpr, left: p[3] * dpr,
                    color: e.background ?? .clear))
        }
        if let background = e.background { chain.append(BackgroundProcessor(background)) }
        if let w = e.watermark, var mark = watermark {
            mark.anchor = anchor(w.gravity)
            mark.offsetX = w.x * dpr
            mark.offsetY = w.y * dpr
            mark.opacity = w.opacity
            mark.scale = w.scale > 0 ? w.scale : nil
            chain.append(mark)
        }
        return chain
    }

    /// `anchor` (of the output) as it lies in the image before `orientation` turned it.
    static func anchor(_ anchor: CropAnchor, before orientation: Orientation) -> CropAnchor {
        let inverse = Orientation.allCases.first { orientation.then($0) == .up } ?? .up
        let (x, y) = (anchor.x, anchor.y)
        switch inverse {
        case .up: return anchor
        case .upMirrored: return CropAnchor(x: 1 - x, y: y)
        case .down: return CropAnchor(x: 1 - x, y: 1 - y)
        case .downMirrored: return CropAnchor(x: x, y: 1 - y)
        case .leftMirrored: return CropAnchor(x: y, y: x)
        case .right: return CropAnchor(x: 1 - y, y: x)
        case .rightMirrored: return CropAnchor(x: 1 - y, y: 1 - x)
        case .left: return CropAnchor(x: y, y: 1 - x)
        }
    }
}
