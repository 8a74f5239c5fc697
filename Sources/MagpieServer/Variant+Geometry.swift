import Magpie

extension Variant.Resize {
    /// The plan when the scale is more than a box's (imgproxy's `c`, `mw`, `mh`, `z`): the crop's
    /// region (source pixels) decides the scale; a minimum raises it on both axes, the zoom
    /// multiplies it, and without `enlarge` nothing grows. The source is decoded at that scale
    /// (shrink-on-load still applies), the crop's region taken from it (crop before resize, in
    /// imgproxy's order), then the result cut to W×H at the gravity where it overflows (fill, or
    /// a minimum past the box).
    func planGeneral(sourceWidth sw: Int, sourceHeight sh: Int) -> any ImageProcessor {
        func side(_ v: Double, _ full: Int) -> Int {
            v == 0 ? full : v < 1 ? max(1, Int((v * Double(full)).rounded())) : min(full, Int(v))
        }
        let (vw, vh) = crop.map { (side($0.width, sw), side($0.height, sh)) } ?? (sw, sh)
        var type = self.type
        if type == .auto { type = width > 0 && height > 0 && (vw >= vh) == (width >= height) ? .fill : .fit }
        let fx = width > 0 ? Double(width) / Double(vw) : nil
        let fy = height > 0 ? Double(height) / Double(vh) : nil
        var (sx, sy) = (1.0, 1.0)
        switch (fx, fy) {
        case (nil, nil): break
        case (let x?, nil): (sx, sy) = (x, x)
        case (nil, let y?): (sx, sy) = (y, y)
        case (let x?, let y?):
            switch type {
            case .force: (sx, sy) = (x, y)
            case .fit: (sx, sy) = (min(x, y), min(x, y))
            default: (sx, sy) = (max(x, y), max(x, y))
            }
        }
        if minWidth > 0, Double(vw) * sx < Double(minWidth) {
            let f = Double(minWidth) / (Double(vw) * sx)
            (sx, sy) = (sx * f, sy * f)
        }
        if minHeight > 0, Double(vh) * sy < Double(minHeight) {
            let f = Double(minHeight) / (Double(vh) * sy)
            (sx, sy) = (sx * f, sy * f)
        }
        (sx, sy) = (sx * zoomX, sy * zoomY)
        if !enlarge { (sx, sy) = (min(sx, 1), min(sy, 1)) }
        let fw = max(1, Int((Double(sw) * sx).rounded()))
        let fh = max(1, Int((Double(sh) * sy).rounded()))
        let rw = min(fw, max(1, Int((Double(vw) * sx).rounded())))
        let rh = min(fh, max(1, Int((Double(vh) * sy).rounded())))
        var chain: any ImageProcessor = DownsamplingProcessor(
            width: fw, height: fh, mode: .exact, allowsUpscaling: sx > 1 || sy > 1, quality: quality,
            keepsColorProfile: keepsColorProfile)
        if let crop, rw < fw || rh < fh {
            // Pixel shifts are of the source: scaled with it.
            let a = crop.anchor
            let scaled = a.shifted(
                x: abs(a.shiftX) >= 1 ? a.shiftX * sx : a.shiftX, y: abs(a.shiftY) >= 1 ? a.shiftY * sy : a.shiftY)
            chain = CompositeProcessor(chain, CroppingProcessor(width: rw, height: rh, anchor: scaled))
        }
        var (bw, bh) = (width > 0 ? min(width, rw) : rw, height > 0 ? min(height, rh) : rh)
        if type == .fillDown, width > 0, height > 0, rw < width || rh < height {
            let aspect = Double(width) / Double(height)
            if Double(rw) / Double(rh) > aspect {
                bw = max(1, Int((Double(rh) * aspect).rounded()))
            } else {
                bh = max(1, Int((Double(rw) / aspect).rounded()))
            }
        }
        if bw < rw || bh < rh {
            chain = CompositeProcessor(chain, CroppingProcessor(width: bw, height: bh, anchor: anchor))
        }
        return chain
    }
}

extension Variant {
    /// imgproxy's `ex` (pad out to W×H) and `exar` (pad out to W:H's aspect ratio): the image
    /// placed at the gravity on a canvas of the background colour (transparent unless `bg`; a
    /// JPEG's is then white). An image already as large, or of that aspect, is left as it is.
    struct Extend: ImageProcessor {
        let width: Int
        let height: Int
        let aspectOnly: Bool
        let anchor: CropAnchor
        let color: Color

        var identifier: String { "magpie.serve.extend" }

        func process(_ input: ImageProcessingInput, firstFrameOnly: Bool) throws -> Image {
            let image: Image
            switch input {
            case .data(let data): image = try Image(decoding: data, options: DecodingOptions(frames: .single(0)))
            case .image(let i): image = i.firstFrame
            }
            let (w, h) = (image.width, image.height)
            var (cw, ch) = (max(w, width), max(h, height))
            if aspectOnly {
                guard width > 0, height > 0 else { return image }
                let aspect = Double(width) / Double(height)
                (cw, ch) = (w, h)
                if Double(w) / Double(h) < aspect {
                    cw = max(w, Int((Double(h) * aspect).rounded()))
                } else {
                    ch = max(h, Int((Double(w) / aspect).rounded()))
                }
            }
            guard cw > w || ch > h else { return image }
            let (x, y) = anchor.origin(imageWidth: cw, imageHeight: ch, width: w, height: h)
            return try image.padded(top: y, right: cw - w - x, bottom: ch - h - y, left: x, color: color)
        }
    }
}
