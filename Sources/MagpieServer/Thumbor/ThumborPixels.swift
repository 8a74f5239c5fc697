/// thumbor 7.8's pixel filters with its arithmetic (`thumbor/ext/filters/_*.c`), over RGBA
/// pixels with straight alpha as Pillow's `RGB`/`RGBA` modes hold them: the colour channels
/// change, alpha never. C's integer division (toward zero), its float-to-int truncation and
/// `ADJUST_COLOR`'s clamp are kept, so a pixel comes out as thumbor's does
/// (`Tests/fixtures/thumbor/pixels.json`, from thumbor's own extensions, holds it). Where the C
/// would overflow an `int` (arguments far past thumbor's documented ±100) the value saturates.
enum ThumborPixels {
    /// Each colour channel through its own table (r, g, b).
    static func map(_ p: inout [UInt8], _ r: [UInt8], _ g: [UInt8], _ b: [UInt8]) {
        p.withUnsafeMutableBufferPointer { px in
            var i = 0
            while i + 3 < px.count {
                px[i] = r[Int(px[i])]
                px[i + 1] = g[Int(px[i + 1])]
                px[i + 2] = b[Int(px[i + 2])]
                i += 4
            }
        }
    }

    static func clamp(_ v: Int) -> UInt8 { UInt8(min(255, max(0, v))) }
    /// C's `(int)` of a float or double (toward zero), then `ADJUST_COLOR`; NaN as x86's 0.
    static func clamp(_ v: Double) -> UInt8 {
        guard v.isFinite else { return 0 }
        return clamp(Int(min(1e9, max(-1e9, v)).rounded(.towardZero)))
    }

    /// A table adding `delta` levels.
    static func offset(_ delta: Int) -> [UInt8] { (0..<256).map { clamp($0 + delta) } }

    /// `_brightness.c`: `delta = 255 * value / 100` levels added to each channel.
    static func brightness(_ value: Int) -> [UInt8] { offset(255 * saturated(value) / 100) }

    /// `_rgb.c`: as brightness, a delta per channel.
    static func rgb(_ r: Int, _ g: Int, _ b: Int) -> [[UInt8]] {
        [r, g, b].map { offset(255 * saturated($0) / 100) }
    }

    /// `_contrast.c`: `d = (value + 100)² / 100`, then `d × (c − 128) / 100 + 128`.
    static func contrast(_ value: Int) -> [UInt8] {
        let v = saturated(value) + 100
        let d = v * v / 100
        return (0..<256).map { clamp(d * ($0 - 128) / 100 + 128) }
    }

    /// `_colorize.c`: each channel mixed with the fill's by its percentage, in doubles.
    static func colorize(_ percent: Int, _ fill: Int) -> [UInt8] {
        let pct = Double(saturated(percent))
        return (0..<256).map { clamp((Double($0) * (100.0 - pct) + Double(fill) * pct) / 100.0) }
    }

    /// An argument kept where thumbor's `int` arithmetic stays exact (and past it, saturating).
    static func saturated(_ v: Int) -> Int { min(100_000, max(-100_000, v)) }

    /// `_saturation.c`: `p = sqrt(r²·0.299 + g²·0.587 + b²·0.114)` (a double, kept as a float),
    /// then `p + (c − p) × change` in floats.
    static func saturation(_ p: inout [UInt8], _ change: Float) {
        p.withUnsafeMutableBufferPointer { px in
            var i = 0
            while i + 3 < px.count {
                let (r, g, b) = (Int(px[i]), Int(px[i + 1]), Int(px[i + 2]))
                let l = Float((Double(r * r) * 0.299 + Double(g * g) * 0.587 + Double(b * b) * 0.114).squareRoot())
                px[i] = clamp(Double(l + (Float(r) - l) * change))
                px[i + 1] = clamp(Double(l + (Float(g) - l) * change))
                px[i + 2] = clamp(Double(l + (Float(b) - l) * change))
                i += 4
            }
        }
    }

    /// `_equalize.c`: each channel through its cumulative histogram. As the C does, the loop that
    /// finds the lowest non-zero cumulative count stops at the first level where any channel has
    /// one, so the others keep 0 there; an image of one level per channel divides 0 by 0 (0).
    static func equalize(_ p: inout [UInt8]) {
        let area = p.count / 4
        var hist = [[Int]](repeating: [Int](repeating: 0, count: 256), count: 3)
        var i = 0
        while i + 3 < p.count {
            for c in 0..<3 { hist[c][Int(p[i + c])] += 1 }
            i += 4
        }
        var cum = [[Int]](repeating: [Int](repeating: 0, count: 256), count: 3)
        for c in 0..<3 {
            var total = 0
            for level in 0..<256 {
                total += hist[c][level]
                if hist[c][level] > 0 { cum[c][level] = total }
            }
        }
        var minimum = [0, 0, 0]
        var level = 0
        while minimum == [0, 0, 0] && level < 256 {
            for c in 0..<3 where minimum[c] == 0 && cum[c][level] != 0 { minimum[c] = cum[c][level] }
            level += 1
        }
        let tables = (0..<3).map { c in
            (0..<256).map { v -> UInt8 in
                // (float)(cum − min) / (area − min) × 255.0f, stored to an unsigned char.
                let x = Float(cum[c][v] - minimum[c]) / Float(area - minimum[c]) * 255
                return x.isFinite && x >= 0 && x < 256 ? UInt8(x.rounded(.towardZero)) : 0
            }
        }
        map(&p, tables[0], tables[1], tables[2])
    }

    /// `_noise.c`: one `random() % amount − amount / 2` added to every channel of a pixel, from
    /// glibc's `random()` after `srandom(seed)`. thumbor's seed 0 takes the process's generator as
    /// it stands (another answer each time); here it is glibc's first state (`srandom(1)`), so
    /// the same URL is the same image and can be cached.
    static func noise(_ p: inout [UInt8], amount: Int, seed: Int) {
        guard amount > 0 else { return }
        var random = GlibcRandom(seed: UInt32(truncatingIfNeeded: seed > 0 ? seed : 1))
        var i = 0
        while i + 3 < p.count {
            let delta = Int(random.next()) % amount - (amount >> 1)
            for c in 0..<3 { p[i + c] = clamp(Int(p[i + c]) + delta) }
            i += 4
        }
    }
}

/// glibc's `random()` (`random_r.c`, its default TYPE_3 additive generator: 31 words, the front
/// pointer 3 ahead of the rear, 310 outputs dropped after seeding), for thumbor's seeded noise.
struct GlibcRandom {
    private var state: [UInt32]
    private var front = 3
    private var rear = 0

    init(seed: UInt32) {
        var s = [Int64](repeating: 0, count: 31)
        s[0] = Int64(seed == 0 ? 1 : seed)
        for k in 1..<31 {
            // glibc's Schrage form of 16807 × s mod (2³¹ − 1).
            let hi = s[k - 1] / 127_773
            let lo = s[k - 1] % 127_773
            var word = 16_807 * lo - 2_836 * hi
            if word < 0 { word += 2_147_483_647 }
            s[k] = word
        }
        state = s.map { UInt32(truncatingIfNeeded: $0) }
        for _ in 0..<310 { _ = next() }
    }

    /// The next value, 0 to 2³¹ − 1: `*fptr += *rptr`, the sum shifted right once.
    mutating func next() -> UInt32 {
        state[front] = state[front] &+ state[rear]
        let value = state[front] >> 1
        front += 1
        rear += 1
        if front >= 31 {
            front = 0
        } else if rear >= 31 {
            rear = 0
        }
        return value
    }
}
