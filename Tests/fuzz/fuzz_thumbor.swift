// libFuzzer harness over thumbor's URL grammar and geometry (ThumborPath, ThumborPathMatcher,
// ThumborQuoting, ThumborGeometry), built by scripts/fuzz.sh with swiftc -sanitize=fuzzer,address
// from the module's own source files. Whatever the bytes, nothing traps; a parsed path keeps its
// promises (an image is left, `unsafe` and a signature exclude each other, `signed` is the path
// after the signature's segment, quoting the image again changes nothing); the geometry's steps for
// a source size the input picks never trap, and its sizes stay whole and not negative.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzThumbor(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let head = Array(bytes.prefix(6))
    let text = String(decoding: bytes.dropFirst(min(6, size)), as: UTF8.self)
    for target in [text, "/" + text, "/unsafe/" + text, "/unsafe/10x20/filters:quality(80)/" + text] {
        guard let path = try? ThumborPath.parse(target) else { continue }
        precondition(!path.image.isEmpty, "an image is left")
        precondition(!(path.unsafe && path.signature != nil), "unsafe or a signature, not both")
        if path.signature != nil {
            let raw = Array(target.utf8.prefix { $0 != UInt8(ascii: "?") })
            precondition(raw.reversed().starts(with: Array(path.signed.utf8).reversed()), "signed ends the path")
        }
        precondition(ThumborQuoting.quote(path.image, safe: "/%") == path.image, "the image is quoted already")
        // The geometry for a source the input's first bytes size (1 to 65536 a side).
        var g = ThumborGeometry()
        (g.width, g.height, g.crop) = (path.width, path.height, path.crop)
        (g.fitIn, g.adaptive, g.full) = (path.fitIn, path.adaptive, path.full)
        (g.halign, g.valign) = (path.halign, path.valign)
        (g.flipHorizontally, g.flipVertically) = (path.horizontalFlip, path.verticalFlip)
        let b = head + [UInt8](repeating: 0, count: 6 - head.count)
        g.maxWidth = b[4] & 1 == 0 ? 0 : Int(b[4]) * 8
        g.maxHeight = b[5] & 1 == 0 ? 0 : Int(b[5]) * 8
        let sw = 1 + (Int(b[0]) << 8 | Int(b[1]))
        let sh = 1 + (Int(b[2]) << 8 | Int(b[3]))
        guard let steps = try? g.steps(sourceWidth: sw, sourceHeight: sh) else { continue }
        for step in steps {
            if case .resize(let w, let h) = step { precondition(w >= 0 && h >= 0, "a resize to \(w)x\(h)") }
        }
        precondition(!g.key.isEmpty)
    }
    return 0
}
