// libFuzzer harness over thumbor's pixel arithmetic (ThumborPixels and its extensions,
// ThumborCurve, ThumborColor), built by scripts/fuzz.sh with swiftc -sanitize=fuzzer,address from
// the module's own source files. The input picks an operation, its arguments (any int, any
// float, NaN and the infinities among them), an image of 1 to 16 pixels a side and its pixels;
// whatever they are, nothing traps, the pixel count stays, and the colour filters leave alpha as
// it was. Text from the input goes through curve's and the colour's readers, and a curve read
// gives a table of 256 levels.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzThumborPixels(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = Array(UnsafeBufferPointer(start: data, count: size))
    guard input.count >= 12 else { return 0 }
    func take(_ n: Int) -> [UInt8] {
        let out = Array(input.prefix(n))
        input.removeFirst(min(n, input.count))
        return out + [UInt8](repeating: 0, count: n - out.count)
    }
    let head = take(12)
    let op = Int(head[0]) % 13
    let (w, h) = (1 + Int(head[1]) % 16, 1 + Int(head[2]) % 16)
    let word = head[3..<11].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    let int = Int(truncatingIfNeeded: word)
    let double = Double(bitPattern: word)
    let text = String(decoding: input, as: UTF8.self)
    var pixels = take(w * h * 4)
    let before = pixels
    var touchesAlpha = false
    switch op {
    case 0:
        ThumborPixels.map(
            &pixels, ThumborPixels.brightness(int), ThumborPixels.contrast(int), ThumborPixels.offset(int % 512))
    case 1:
        let t = ThumborPixels.rgb(int, int >> 8, int >> 16)
        ThumborPixels.map(&pixels, t[0], t[1], t[2])
    case 2: ThumborPixels.saturation(&pixels, Float(double))
    case 3:
        ThumborPixels.map(
            &pixels, ThumborPixels.colorize(int, Int(head[11])), ThumborPixels.colorize(int >> 3, 7),
            ThumborPixels.colorize(-int, 255))
    case 4: ThumborPixels.equalize(&pixels)
    case 5: ThumborPixels.noise(&pixels, amount: int % 100_000, seed: int >> 20)
    case 6:
        touchesAlpha = true
        ThumborPixels.blur(&pixels, width: w, height: h, radius: 1 + Int(head[11]) % 20, sigma: double)
    case 7:
        touchesAlpha = true
        let columns = 1 + Int(head[11]) % 7
        let kernel = (0..<(columns * (1 + 2 * (int & 3)))).map { Double(Int8(truncatingIfNeeded: int >> ($0 % 56))) }
        if ThumborPixels.validKernel(count: kernel.count, columns: columns) {
            ThumborPixels.convolve(
                &pixels, width: w, height: h, kernel: kernel, columns: columns, normalize: int & 4 == 0)
        }
    case 8:
        // A curve of points from the text, each list's table whole.
        if let points = ThumborCurve.points(text) {
            let table = ThumborCurve.table(points)
            precondition(table.count == 256, "a curve is 256 levels")
            ThumborPixels.map(&pixels, table, table, table)
        }
    case 9: _ = ThumborColor.parse(text)
    case 10: _ = ThumborPixels.hexBytes(text)
    case 11:
        // A paste of the image on a canvas of another size, anywhere, merged or not.
        touchesAlpha = true
        let (cw, ch) = (1 + Int(head[11]) % 16, 1 + Int(head[3]) % 16)
        var canvas = [UInt8](repeating: head[4], count: cw * ch * 4)
        let at = (Int(Int8(bitPattern: head[5])), Int(Int8(bitPattern: head[6])))
        ThumborPixels.paste(pixels, w, h, into: &canvas, cw, ch, at: at, merge: head[7] & 1 == 0)
        precondition(canvas.count == cw * ch * 4, "the canvas keeps its size")
        _ = ThumborPixels.mean(pixels)
    default:
        let count = 1 + Int(head[11]) % 12
        var points: [(UInt8, UInt8)] = []
        for i in 0..<count { points.append((head[(2 * i) % 12], head[(2 * i + 1) % 12])) }
        precondition(ThumborCurve.table(points).count == 256, "a curve is 256 levels")
    }
    precondition(pixels.count == before.count, "the pixel count stays")
    if !touchesAlpha {
        precondition(stride(from: 3, to: pixels.count, by: 4).allSatisfy { pixels[$0] == before[$0] }, "alpha kept")
    }
    return 0
}
