import Magpie

/// thumbor 7.8's filters that are built here, one row each: the name and parameters of its
/// `@filter_method`, then what it does. A built-in filter without a row is skipped, as thumbor
/// skips a filter it does not know (docs/thumbor.md lists which are still to come).
extension ThumborFilter {
    static let rows = requestRows + pixelRows

    /// The filters that set what the request asks for (quality, format, headers, geometry).
    static let requestRows: [ThumborFilter] = [
        // thumbor/filters/quality.py: the request's quality.
        ThumborFilter(name: "quality", parameters: [.positiveNumber]) { r, a in r.quality = a.first?.int },
        // format.py: one of its ALLOWED_FORMATS, lowercased; any other clears the format.
        ThumborFilter(name: "format", parameters: [.string]) { r, a in
            let f = a.first?.text?.lowercased() ?? ""
            r.format = ["png", "jpeg", "jpg", "gif", "webp", "avif", "heic", "heif"].contains(f) ? f : nil
        },
        // max_age.py
        ThumborFilter(name: "max_age", parameters: [.positiveNumber]) { r, a in r.maxAge = a.first?.int },
        // autojpg.py: the request's auto_png_to_jpg, true where the argument is left out.
        ThumborFilter(name: "autojpg", parameters: [.boolean], optional: 1) { r, a in
            r.autoJPG = a.first.map { $0 == .bool(true) } ?? true
        },
        // max_bytes.py: the handler's reload_to_fit_in_kb (OutputSerializer.thumborFitting).
        ThumborFilter(name: "max_bytes", parameters: [.positiveNumber]) { r, a in r.maxBytes = a.first?.int },
        // strip_icc.py, strip_exif.py
        ThumborFilter(name: "strip_icc", parameters: []) { r, _ in r.stripsICC = true },
        ThumborFilter(name: "strip_exif", parameters: []) { r, _ in r.stripsExif = true },
        // stretch.py (pre-load): no crop to the target's aspect.
        ThumborFilter(name: "stretch", parameters: []) { r, _ in r.geometry.stretch = true },
        // no_upscale.py (after-load): the target's sides at most the source's.
        ThumborFilter(name: "no_upscale", parameters: []) { r, _ in r.noUpscale = true },
        // grayscale.py: Pillow's convert("L") (or "LA" with alpha).
        ThumborFilter(name: "grayscale", parameters: []) { r, _ in r.after.append(ColorProcessor.grayscale) },
        // rotate.py: multiples of 90 only, counter-clockwise (Pillow's sense); others are Pillow's
        // free rotation with the canvas expanded, not built (skipped).
        ThumborFilter(name: "rotate", parameters: [.number]) { r, a in
            guard let v = a.first?.int, v % 90 == 0 else { return }
            let ccw = ((v % 360) + 360) % 360
            if ccw != 0, let turn = TransformProcessor(rotatingClockwise: (360 - ccw) % 360) { r.after.append(turn) }
        },
        // proportion.py: the image scaled by a fraction in (0, 1], if both sides stay ≥ 1.
        ThumborFilter(name: "proportion", parameters: [.decimal]) { r, a in
            guard let v = a.first?.double, v > 0, v <= 1 else { return }
            r.after.append(ThumborScale(.proportion(v)))
        },
        // upscale.py: a result smaller than the target on both sides enlarged into it.
        ThumborFilter(name: "upscale", parameters: []) { r, _ in
            let (w, h) = (r.geometry.width ?? 0, r.geometry.height ?? 0)
            guard w > 0, h > 0 else { return }
            r.after.append(ThumborScale(.upscale(width: w, height: h)))
        },
    ]
}

/// The resizes of thumbor's `proportion` and `upscale` filters, after the transform.
struct ThumborScale: ImageProcessor {
    enum Kind: Sendable, Hashable {
        case proportion(Double)
        case upscale(width: Int, height: Int)
    }
    let kind: Kind
    init(_ kind: Kind) { self.kind = kind }

    var identifier: String {
        switch kind {
        case .proportion(let v): "thumbor.proportion(\(v))"
        case .upscale(let w, let h): "thumbor.upscale(\(w)x\(h))"
        }
    }

    func process(_ input: ImageProcessingInput, firstFrameOnly: Bool) throws -> Image {
        let image: Image
        switch input {
        case .data(let data): image = try Image(decoding: data, options: DecodingOptions(frames: .single(0)))
        case .image(let i): image = i.firstFrame
        }
        let (sw, sh) = (Double(image.width), Double(image.height))
        let size: (Double, Double)
        switch kind {
        case .proportion(let v):
            size = (sw * v, sh * v)
            guard size.0 >= 1, size.1 >= 1 else { return image }
        case .upscale(let tw, let th):
            let (w, h) = (Double(tw), Double(th))
            guard sw < w, sh < h else { return image }
            // upscale.py: int(source_height * target_width / source_width), Python's left-to-right.
            size = sw / w >= sh / h ? (w, (sh * w / sw).rounded(.towardZero)) : ((sw * h / sh).rounded(.towardZero), h)
        }
        let (w, h) = (max(1, Int(size.0)), max(1, Int(size.1)))
        return w == image.width && h == image.height ? image : try image.resampled(width: w, height: h)
    }
}
