import MagpieImage

/// thumbor 7.8's filters that change pixels by its own arithmetic (``ThumborPixels``), one row
/// each, in its post-transform phase: after the resize, in the URL's order. A filter whose
/// arguments thumbor would raise on (a 500 there) sets ``ThumborRequest/failure``: refused.
extension ThumborFilter {
    static let pixelRows: [ThumborFilter] = [
        // brightness.py, contrast.py: BaseFilter.Number.
        ThumborFilter(name: "brightness", parameters: [.number]) { r, a in
            guard let v = a.first?.int else { return }
            r.levels("brightness(\(v))", ThumborPixels.brightness(v))
        },
        ThumborFilter(name: "contrast", parameters: [.number]) { r, a in
            guard let v = a.first?.int else { return }
            r.levels("contrast(\(v))", ThumborPixels.contrast(v))
        },
        // rgb.py: three Numbers, percentages of 255 added to each channel.
        ThumborFilter(name: "rgb", parameters: [.number, .number, .number]) { r, a in
            let v = a.compactMap(\.int)
            guard v.count == 3 else { return }
            let t = ThumborPixels.rgb(v[0], v[1], v[2])
            r.levels("rgb(\(v[0]),\(v[1]),\(v[2]))", t[0], t[1], t[2])
        },
        // saturation.py: a DecimalNumber, C's float.
        ThumborFilter(name: "saturation", parameters: [.decimal]) { r, a in
            guard let v = a.first?.double else { return }
            let change = Float(v)
            r.pixels("saturation(\(change))") { p, _, _ in ThumborPixels.saturation(&p, change) }
        },
        // colorize.py: three PositiveNumbers and a fill colour as hex (bytearray.fromhex, three
        // bytes; anything else raises there).
        ThumborFilter(name: "colorize", parameters: [.positiveNumber, .positiveNumber, .positiveNumber, .string]) {
            r, a in
            let pct = a.prefix(3).compactMap(\.int)
            guard pct.count == 3, let fill = a.last?.text.flatMap(ThumborPixels.hexBytes), fill.count == 3 else {
                r.failure = "colorize: the fill is not three hex bytes"
                return
            }
            r.levels(
                "colorize(\(pct[0]),\(pct[1]),\(pct[2]),\(fill.map { String($0) }.joined(separator: ",")))",
                ThumborPixels.colorize(pct[0], Int(fill[0])), ThumborPixels.colorize(pct[1], Int(fill[1])),
                ThumborPixels.colorize(pct[2], Int(fill[2])))
        },
        // equalize.py: no parameters; the tables come from the image's histogram.
        ThumborFilter(name: "equalize", parameters: []) { r, _ in
            r.pixels("equalize") { p, _, _ in ThumborPixels.equalize(&p) }
        },
        // curve.py: four point lists (all channels, then red, green and blue), its own pattern.
        ThumborFilter(name: "curve", parameters: Array(repeating: .pattern(ThumborCurve.pattern), count: 4)) { r, a in
            let curves = a.compactMap { $0.text.flatMap(ThumborCurve.points) }
            guard curves.count == 4 else {
                r.failure = "curve: a list thumbor cannot read"
                return
            }
            let tables = curves.map(ThumborCurve.table)
            let composed = (1...3).map { c in tables[c].map { tables[0][Int($0)] } }
            let name = curves.map { $0.map { "\($0.0),\($0.1)" }.joined(separator: ";") }.joined(separator: "|")
            r.levels("curve(\(name))", composed[0], composed[1], composed[2])
        },
        // noise.py: an amount and an optional seed (PositiveNumbers).
        ThumborFilter(name: "noise", parameters: [.positiveNumber, .positiveNumber], optional: 1) { r, a in
            guard let amount = a.first?.int else { return }
            let seed = a.count > 1 ? a[1].int ?? 0 : 0
            r.pixels("noise(\(amount),\(seed))") { p, _, _ in
                ThumborPixels.noise(&p, amount: min(amount, Int(Int32.max)), seed: seed)
            }
        },
        // blur.py: a radius (PositiveNonZeroNumber) and an optional σ (DecimalNumber, 0: the radius).
        ThumborFilter(name: "blur", parameters: [.positiveNonZeroNumber, .decimal], optional: 1) { r, a in
            guard let radius = a.first?.int else { return }
            let sigma = a.count > 1 ? a[1].double ?? 0 : 0
            r.pixels("blur(\(radius),\(sigma))") { p, w, h in
                ThumborPixels.blur(&p, width: w, height: h, radius: radius, sigma: sigma)
            }
        },
        // convolution.py: the matrix as `;`-separated numbers, its columns, and whether to
        // normalize (default true); a kernel _convolution.c does not take raises there.
        ThumborFilter(
            name: "convolution",
            parameters: [.pattern("-?\\d+(?:\\.\\d*)?(?:;-?\\d+(?:\\.\\d*)?)*"), .positiveNonZeroNumber, .boolean],
            optional: 1
        ) { r, a in
            guard a.count >= 2, let text = a[0].text, let columns = a[1].int else { return }
            let kernel = text.split(separator: ";").compactMap { Double($0) }
            let normalize = a.count > 2 ? a[2] != .bool(false) : true
            guard kernel.count == text.split(separator: ";").count,
                ThumborPixels.validKernel(count: kernel.count, columns: columns)
            else {
                r.failure = "convolution: not a kernel of \(columns) columns, odd on both sides, of at most 625"
                return
            }
            r.pixels("convolution(\(kernel.map { "\($0)" }.joined(separator: ";")),\(columns),\(normalize))") {
                p, w, h in
                ThumborPixels.convolve(&p, width: w, height: h, kernel: kernel, columns: columns, normalize: normalize)
            }
        },
        // fill.py: a colour (a name, hex, `transparent`, `auto` or `blur`) and fill_transparent.
        ThumborFilter(name: "fill", parameters: [.word, .boolean], optional: 1) { r, a in
            guard let text = a.first?.text else { return }
            let merge = a.count > 1 && a[1] == .bool(true)
            let colour: ThumborFill.Colour
            switch text {
            case "auto": colour = .auto
            case "blur": colour = .blur
            default:
                guard let rgba = ThumborColor.parse(text) else {
                    r.failure = "fill: \(text) is no colour Pillow knows"
                    return
                }
                colour = .rgba(rgba)
            }
            r.after.append(ThumborFill(colour: colour, kind: .fill(merge: merge)))
        },
        // background_color.py: a colour; the image merged over it.
        ThumborFilter(name: "background_color", parameters: [.word]) { r, a in
            guard let text = a.first?.text else { return }
            guard let rgba = ThumborColor.parse(text) else {
                r.failure = "background_color: \(text) is no colour Pillow knows"
                return
            }
            r.after.append(ThumborFill(colour: .rgba(rgba), kind: .background))
        },
    ]
}

extension ThumborRequest {
    /// A post-transform filter that maps each colour channel through a table.
    mutating func levels(_ name: String, _ r: [UInt8], _ g: [UInt8]? = nil, _ b: [UInt8]? = nil) {
        let (g, b) = (g ?? r, b ?? r)
        pixels(name) { p, _, _ in ThumborPixels.map(&p, r, g, b) }
    }

    /// A post-transform filter over the pixels, named `thumbor.NAME` in the variant's name.
    mutating func pixels(_ name: String, _ body: @escaping PixelMapProcessor.Body) {
        after.append(PixelMapProcessor(name: "thumbor." + name, body))
    }
}
