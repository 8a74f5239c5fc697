import Magpie

extension Variant {
    /// The processors after the resize, in imgproxy's order: blur, sharpen, pixelate, colour,
    /// `extend` (`ex`, `exar`), padding, background, watermark. Pixel sizes and offsets follow the
    /// geometry's DPR scale (imgproxy's `DprScale`: the DPR as far as the source allows it).
    static func effects(
        _ o: ProcessingOptions, geometry g: ImgproxyGeometry, request: ImgproxyGeometry.Request,
        watermark: OverlayProcessor?
    ) -> [any ImageProcessor] {
        let e = o.effects
        var chain: [any ImageProcessor] = []
        if let blur = e.blur, blur > 0 { chain.append(BlurProcessor(sigma: blur)) }
        if let sigma = e.sharpen, sigma > 0 {
            // imgproxy's `sh` is `vips_sharpen` with that sigma and libvips's other defaults.
            var s = Sharpening.afterResize
            s.sigma = sigma
            chain.append(SharpenProcessor(s))
        }
        if e.pixelate > 1 {
            chain.append(PixelateProcessor(size: max(1, ImgproxyGeometry.scale(e.pixelate, g.dprScale))))
        }
        let color = ColorAdjustment(saturation: e.saturation, contrast: e.contrast, brightness: Double(e.brightness))
        if !color.isIdentity { chain.append(ColorProcessor(color)) }
        chain += extensions(o, geometry: g)
        let p = g.padding(request)
        if p.contains(where: { $0 > 0 }) {
            chain.append(
                PaddingProcessor(top: p[0], right: p[1], bottom: p[2], left: p[3], color: e.background ?? .clear))
        }
        if let background = e.background { chain.append(BackgroundProcessor(background)) }
        if let w = e.watermark, var mark = watermark {
            mark.anchor = anchor(w.gravity)
            mark.offsetX = Int((Double(w.x) * g.dprScale).rounded(.toNearestOrEven))
            mark.offsetY = Int((Double(w.y) * g.dprScale).rounded(.toNearestOrEven))
            mark.opacity = w.opacity * mark.opacity  // the server's watermark opacity is the base
            mark.scale = w.scale > 0 ? w.scale : nil
            chain.append(mark)
        }
        return chain
    }

    /// `ex` to the box at the DPR, then `exar` to the canvas the geometry gives, onto `bg` or
    /// transparent (white once a JPEG), in the output's frame.
    static func extensions(_ o: ProcessingOptions, geometry g: ImgproxyGeometry) -> [any ImageProcessor] {
        let color = o.effects.background ?? .clear
        var chain: [any ImageProcessor] = []
        if let gravity = o.geometry.extend, g.targetWidth > 0 || g.targetHeight > 0 {
            chain.append(
                Extend(
                    width: g.targetWidth, height: g.targetHeight, anchor: gravity.anchor(dpr: g.dprScale),
                    color: color))
        }
        if let gravity = o.geometry.extendAspectRatio, g.extendAspectRatioWidth > 0, g.extendAspectRatioHeight > 0 {
            chain.append(
                Extend(
                    width: g.extendAspectRatioWidth, height: g.extendAspectRatioHeight,
                    anchor: gravity.anchor(dpr: g.dprScale), color: color))
        }
        return chain
    }
}
