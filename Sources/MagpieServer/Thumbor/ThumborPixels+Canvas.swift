/// The canvas arithmetic of thumbor's `fill` and `background_color` (``ThumborFill``): `_fill.c`'s
/// mean colour and the Pillow engine's `paste`.
extension ThumborPixels {
    /// `_fill.c`: each colour channel's mean over every pixel, in integers (truncated).
    static func mean(_ p: [UInt8]) -> [UInt8] {
        var sum = [0, 0, 0]
        var i = 0
        while i + 3 < p.count {
            for c in 0..<3 { sum[c] += Int(p[i + c]) }
            i += 4
        }
        let area = max(1, p.count / 4)
        return sum.map { UInt8($0 / area) }
    }

    /// The Pillow engine's `paste` of `image` (w × h) onto `canvas` (cw × ch) at `at` (which may be
    /// negative: the part inside is pasted). With `merge`, `_composite.c`'s straight-alpha "over"
    /// in doubles, truncated; without, the pixels replace the canvas's, alpha and all.
    static func paste(
        _ image: [UInt8], _ w: Int, _ h: Int, into canvas: inout [UInt8], _ cw: Int, _ ch: Int, at: (Int, Int),
        merge: Bool
    ) {
        for sy in stride(from: max(0, -at.1), to: h, by: 1) {
            let dy = at.1 + sy
            guard dy < ch else { break }
            for sx in stride(from: max(0, -at.0), to: w, by: 1) {
                let dx = at.0 + sx
                guard dx < cw else { break }
                let (s, d) = ((sy * w + sx) * 4, (dy * cw + dx) * 4)
                guard merge else {
                    for c in 0..<4 { canvas[d + c] = image[s + c] }
                    continue
                }
                // a1, a2: the canvas's and the image's transparency (255 − alpha).
                let a1 = 255 - Double(canvas[d + 3])
                let a2 = 255 - Double(image[s + 3])
                var delta = (a2 / 255) * (a1 / 255)
                let a = 255 * delta
                delta = 1 - delta
                delta = delta <= 1e-12 ? 1 : 1 / delta
                for c in 0..<3 {
                    let c1 = Double(canvas[d + c])
                    let c2 = Double(image[s + c])
                    canvas[d + c] = composite(delta * (((1 - a2 / 255) * c2) + ((1 - a1 / 255) * c1 * (a2 / 255))))
                }
                canvas[d + 3] = composite(255 - a)
            }
        }
    }

    /// `ADJUST_COLOR_DOUBLE`: clamped, then C's `(int)`.
    static func composite(_ v: Double) -> UInt8 { v > 255 ? 255 : v < 0 ? 0 : UInt8(v.rounded(.towardZero)) }
}
