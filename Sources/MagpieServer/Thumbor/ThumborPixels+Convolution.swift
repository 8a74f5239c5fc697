#if canImport(Glibc)
    import Glibc
#endif

/// thumbor's convolution (`ext/filters/_convolution.c`) and the Gaussian blur built on it
/// (`filters/blur.py`), with its arithmetic: edges clamped, sums in doubles in its order, each
/// channel truncated (C's `(int)`) and clamped.
extension ThumborPixels {
    /// The largest kernel taken (entries): thumbor takes any the URL holds, each costing every
    /// output pixel that many reads; past this a request is refused rather than left to run.
    static let maxKernel = 625

    /// `_convolution.apply`: `kernel` of `columns` columns (an odd number of entries and of rows),
    /// normalized by its sum where asked and that sum is not 0. Alpha is convolved too where the
    /// image has it (Pillow's `RGBA`); an opaque image is thumbor's `RGB`, its alpha untouched.
    static func convolve(_ p: inout [UInt8], width: Int, height: Int, kernel: [Double], columns: Int, normalize: Bool) {
        var k = kernel
        let sum = kernel.reduce(0, +)
        if normalize && sum != 0 { k = kernel.map { $0 / sum } }
        let rows = kernel.count / columns
        let (midX, midY) = (columns >> 1, rows >> 1)
        let alpha = stride(from: 3, to: p.count, by: 4).contains { p[$0] != 255 }
        let copy = p
        copy.withUnsafeBufferPointer { src in
            p.withUnsafeMutableBufferPointer { dst in
                var o = 0
                for y in 0..<height {
                    for x in 0..<width {
                        var (r, g, b, a) = (0.0, 0.0, 0.0, 0.0)
                        for py in (y - midY)...(y + midY) {
                            let row = min(max(py, 0), height - 1) * width * 4
                            let ky = (py - y + midY) * columns
                            for px in (x - midX)...(x + midX) {
                                let i = row + min(max(px, 0), width - 1) * 4
                                let v = k[ky + px - x + midX]
                                r += Double(src[i]) * v
                                g += Double(src[i + 1]) * v
                                b += Double(src[i + 2]) * v
                                if alpha { a += Double(src[i + 3]) * v }
                            }
                        }
                        dst[o] = clamp(r)
                        dst[o + 1] = clamp(g)
                        dst[o + 2] = clamp(b)
                        if alpha { dst[o + 3] = clamp(a) }
                        o += 4
                    }
                }
            }
        }
    }

    /// Whether `_convolution.apply` takes a kernel of `count` entries in `columns` columns.
    static func validKernel(count: Int, columns: Int) -> Bool {
        columns > 0 && count % columns == 0 && count % 2 == 1 && (count / columns) % 2 == 1 && count <= maxKernel
    }

    /// blur.py's `generate_1d_matrix`: `e ** -(x² / 2σ²) / sqrt(2σ² π)` for x from −radius to radius.
    static func blurKernel(radius: Int, sigma: Double) -> [Double] {
        let twoSigmaSquared = 2 * sigma * sigma
        return (0...(2 * radius)).map { column in
            let x = Double(column - radius)
            return pow(2.718281828459045, -((x * x) / twoSigmaSquared)) / (twoSigmaSquared * Double.pi).squareRoot()
        }
    }

    /// blur.py's `apply_blur`: σ the radius where 0, the radius at most 150, the kernel across
    /// and then down.
    static func blur(_ p: inout [UInt8], width: Int, height: Int, radius: Int, sigma: Double) {
        let sigma = sigma == 0 ? Double(radius) : sigma
        let radius = min(radius, 150)
        let kernel = blurKernel(radius: radius, sigma: sigma)
        convolve(&p, width: width, height: height, kernel: kernel, columns: kernel.count, normalize: true)
        convolve(&p, width: width, height: height, kernel: kernel, columns: 1, normalize: true)
    }
}
