import Magpie

extension Variant {
    /// The processors after the resize, in imgproxy's order: rotate and flip (`turning`: when no
    /// resize does it), blur, sharpen, pixelate, colour, `extend` (`ex`, `exar`), padding, background,
    /// watermark.
    static func effects(
        _ e: EffectOptions, dpr: Int, watermark: OverlayProcessor?, turning: Bool, extend: [any ImageProcessor] = []
    ) -> [any ImageProcessor] {
        var chain: [any ImageProcessor] = []
        if turning && e.orientation != .up { chain.append(TransformProcessor(e.orientation)) }
        if let blur = e.blur, blur > 0 { chain.append(BlurProcessor(sigma: blur)) }
        if let sigma = e.sharpen, sigma > 0 {
            // imgproxy's `sh` is `vips_sharpen` with that sigma and libvips's other defaults.
            var s = Sharpening.afterResize
            s.sigma = sigma
            chain.append(SharpenProcessor(s))
        }
        if e.pixelate > 1 { chain.append(PixelateProcessor(size: e.pixelate * dpr)) }
        let color = ColorAdjustment(saturation: e.saturation, contrast: e.contrast, brightness: Double(e.brightness))
        if !color.isIdentity { chain.append(ColorProcessor(color)) }
        chain += extend
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
        anchor.before(orientation)
    }

    /// `ex` then `exar`, onto `bg` or transparent (white once a JPEG), in the output's frame.
    static func extensions(_ o: ProcessingOptions, format: String) -> [any ImageProcessor] {
        let (w, h) = (o.width * o.dpr, o.height * o.dpr)
        let color = o.effects.background ?? .clear
        var chain: [any ImageProcessor] = []
        if let g = o.geometry.extend, w > 0 || h > 0 {
            chain.append(Extend(width: w, height: h, aspectOnly: false, anchor: g.anchor(dpr: o.dpr), color: color))
        }
        if let g = o.geometry.extendAspectRatio, w > 0, h > 0 {
            chain.append(Extend(width: w, height: h, aspectOnly: true, anchor: g.anchor(dpr: o.dpr), color: color))
        }
        return chain
    }
}
