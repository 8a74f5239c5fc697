/// thumbor's `curve` filter (`filters/curve.py`, `ext/filters/_curve.c`): each list of points
/// `[(x,y),…]` becomes a table of 256 levels by its natural cubic spline, as the C computes it.
enum ThumborCurve {
    /// curve.py's pattern for one list.
    static let pattern = "\\[(?:\\(\\d+,\\d+\\),?)*\\]"

    /// The points of a list, each coordinate as the C keeps it (`(unsigned char)`, so 300 is 44);
    /// nil for an empty list (the C reads past its buffer) or a number past 64 bits.
    static func points(_ text: String) -> [(UInt8, UInt8)]? {
        var numbers: [UInt8] = []
        var digits = ""
        for c in text {
            // The pattern's \d takes any script's digits; Python's literal_eval only ASCII ones.
            if c.isNumber, !c.isASCII { return nil }
            if c.isASCII, c.isNumber {
                digits.append(c)
            } else if !digits.isEmpty {
                guard let n = Int(digits) else { return nil }
                numbers.append(UInt8(truncatingIfNeeded: n))
                digits = ""
            }
        }
        // More than 255 points: the C passes the count to an `unsigned char` and reads past it.
        guard !numbers.isEmpty, numbers.count % 2 == 0, numbers.count / 2 < 256 else { return nil }
        return stride(from: 0, to: numbers.count, by: 2).map { (numbers[$0], numbers[$0 + 1]) }
    }

    /// The C's `cubic_spline_interpolation(points, count, 256)`: levels before the first point
    /// take its y, levels from the last point on take the last y, each segment between follows
    /// the spline (rounded half away from zero, clamped; a NaN from points sharing an x is 0, as
    /// x86 converts it).
    static func table(_ points: [(UInt8, UInt8)]) -> [UInt8] {
        let sd = secondDerivative(points)
        var items = [UInt8](repeating: points[0].1, count: 256)
        for i in 0..<(points.count - 1) {
            let (cx, cy) = (Int(points[i].0), Double(points[i].1))
            let (nx, ny) = (Int(points[i + 1].0), Double(points[i + 1].1))
            var x = cx
            while x < nx {
                let t = Double(x - cx) / Double(nx - cx)
                let (a, b, h) = (1 - t, t, Double(nx - cx))
                let y = a * cy + b * ny + (h * h / 6) * ((a * a * a - a) * sd[i] + (b * b * b - b) * sd[i + 1])
                let r = y.rounded()
                items[x] = r.isNaN ? 0 : UInt8(r > 255 ? 255 : r < 0 ? 0 : r)
                x += 1
            }
        }
        for i in Int(points[points.count - 1].0)..<256 { items[i] = points[points.count - 1].1 }
        return items
    }

    /// The C's `calculate_second_derivative`: the tridiagonal system of a natural spline, solved
    /// forward and back in its order of operations.
    static func secondDerivative(_ points: [(UInt8, UInt8)]) -> [Double] {
        let n = points.count
        let x = points.map { Int($0.0) }
        let y = points.map { Int($0.1) }
        var m = [Double](repeating: 0, count: n * 3)
        var result = [Double](repeating: 0, count: n)
        m[1] = 1
        if n > 2 {
            for i in 1..<(n - 1) {
                let k = i * 3
                m[k] = Double(x[i] - x[i - 1]) / 6
                m[k + 1] = Double(x[i + 1] - x[i - 1]) / 3
                m[k + 2] = Double(x[i + 1] - x[i]) / 6
                result[i] =
                    Double(y[i + 1] - y[i]) / Double(x[i + 1] - x[i]) - Double(y[i] - y[i - 1])
                    / Double(x[i] - x[i - 1])
            }
        }
        m[(n - 1) * 3 + 1] = 1
        for i in stride(from: 1, to: n, by: 1) {
            let j = i * 3
            let k = m[j] / m[j - 2]
            m[j + 1] -= k * m[j - 1]
            m[j] = 0
            result[i] -= k * result[i - 1]
        }
        for i in stride(from: n - 2, through: 0, by: -1) {
            let j = i * 3
            let k = m[j + 2] / m[j + 4]
            m[j + 1] -= k * m[j + 3]
            m[j + 2] = 0
            result[i] -= k * result[i + 1]
        }
        return (0..<n).map { result[$0] / m[$0 * 3 + 1] }
    }
}
