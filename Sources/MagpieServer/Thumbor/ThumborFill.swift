import MagpieImage

/// thumbor's `fill` and `background_color` filters (`filters/fill.py`, `background_color.py`):
/// the image on a canvas of a colour, by the Pillow engine's `paste` (with `merge`, thumbor's
/// `_composite.c`; without, Pillow's plain paste, alpha and all).
struct ThumborFill: ImageProcessor {
    enum Colour: Sendable, Hashable {
        /// RGBA.
        case rgba([UInt8])
        /// `auto`: the mean of every pixel's colour (`_fill.c`, transparent ones too).
        case auto
        /// `blur`: the image itself, blurred (radius 50) and stretched over the box.
        case blur
    }

    enum Kind: Sendable, Hashable {
        /// `fill(colour, fill_transparent)`: the box of the request's sides (the image's where
        /// one is 0), the image centred in it; merged where `fill_transparent`.
        case fill(merge: Bool)
        /// `background_color(colour)`: a canvas the image's size, the image merged over it.
        case background
    }

    let colour: Colour
    let kind: Kind
    /// The request's sides as the transform left them (0: not given; nil: `orig`), set by
    /// ``ThumborResize`` for the source at hand.
    var box: (width: Int?, height: Int?) = (0, 0)

    var identifier: String {
        let c: String
        switch colour {
        case .rgba(let v): c = v.map { String($0) }.joined(separator: ",")
        case .auto: c = "auto"
        case .blur: c = "blur"
        }
        switch kind {
        case .fill(let merge): return "thumbor.fill(\(c),\(merge))"
        case .background: return "thumbor.background_color(\(c))"
        }
    }

    func process(_ input: ImageProcessingInput, firstFrameOnly: Bool) throws -> Image {
        let image = try input.firstImage()
        let (w, h) = (image.width, image.height)
        var (bw, bh) = (w, h)
        if case .fill = kind {
            // fill.py: `request.width if request.width != 0 else engine.size[0]`; thumbor raises
            // on `orig` left by a transform without fit-in (here: the image's own side).
            (bw, bh) = (box.width.map { $0 == 0 ? w : $0 } ?? w, box.height.map { $0 == 0 ? h : $0 } ?? h)
        }
        // thumbor allocates any box the URL asks for; here at most 2^14 a side and 40 Mpx.
        guard bw > 0, bh > 0, bw <= 1 << 14, bh <= 1 << 14, bw * bh <= 40_000_000 else { throw TooLarge() }
        var canvas: [UInt8]
        switch colour {
        case .rgba(let v): canvas = Self.canvas(bw * bh, v)
        case .auto: canvas = Self.canvas(bw * bh, ThumborPixels.mean(image.pixels) + [255])
        case .blur:
            // The image merged over a clear canvas of its size (itself), blurred, then resized.
            var p = image.pixels
            ThumborPixels.blur(&p, width: w, height: h, radius: 50, sigma: 0)
            canvas = try Image(width: w, height: h, rgba: p).resampled(width: bw, height: bh).pixels
        }
        // Python's floor division: negative where the image is larger than the box.
        let x = Int((Double(bw - w) / 2).rounded(.down))
        let y = Int((Double(bh - h) / 2).rounded(.down))
        let merge: Bool
        switch kind {
        case .fill(let m): merge = m
        case .background: merge = true
        }
        ThumborPixels.paste(image.pixels, w, h, into: &canvas, bw, bh, at: (x, y), merge: merge)
        return try Image(width: bw, height: bh, rgba: canvas)
    }
}

extension ThumborFill {
    /// A box past the limits: refused, not allocated.
    struct TooLarge: Error {}

    /// `count` pixels of one RGBA colour.
    static func canvas(_ count: Int, _ rgba: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count * 4)
        out.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                (p[i], p[i + 1], p[i + 2], p[i + 3]) = (rgba[0], rgba[1], rgba[2], rgba[3])
                i += 4
            }
        }
        return out
    }
}

extension ImageProcessingInput {
    /// The first frame: bytes decoded, or the image's.
    func firstImage() throws -> Image {
        switch self {
        case .data(let data): try Image(decoding: data, options: DecodingOptions(frames: .single(0)))
        case .image(let image): image.firstFrame
        }
    }
}
