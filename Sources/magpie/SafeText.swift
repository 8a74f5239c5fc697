#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Text from strangers (URLs, names an origin chose) made safe to print and to name files with.
enum SafeText {
    /// `text` with control characters (C0, DEL, C1) written as `\xNN` / `\u{NN}` escapes, so a
    /// URL cannot move the cursor, clear the screen or forge a line of output.
    static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                out += scalar.value < 0x80 ? "\\x" + hex2(scalar.value) : "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func isControl(_ s: Unicode.Scalar) -> Bool {
        s.value < 0x20 || s.value == 0x7F || (0x80...0x9F).contains(s.value)
    }

    private static func hex2(_ v: UInt32) -> String {
        let digits = String(v, radix: 16)
        return digits.count < 2 ? "0" + digits : digits
    }

    /// A file-name stem from the last path segment of `url`: no `/`, `\`, NUL or control
    /// characters (each becomes `_`), no leading `.` or `-`, at most `limit` bytes of UTF-8;
    /// `image` when nothing is left.
    static func fileStem(for url: URL, limit: Int = 80) -> String {
        var segment = url.lastPathComponent
        if segment == "/" { segment = "" }
        if let dot = segment.lastIndex(of: "."), dot != segment.startIndex { segment = String(segment[..<dot]) }
        var stem = ""
        var bytes = 0
        for scalar in segment.unicodeScalars {
            let safe: Unicode.Scalar =
                isControl(scalar) || scalar == "/" || scalar == "\\" || scalar == "\0" ? "_" : scalar
            if stem.isEmpty && (safe == "." || safe == "-" || safe == " ") { continue }
            let size = String(safe).utf8.count
            if bytes + size > limit { break }
            stem.unicodeScalars.append(safe)
            bytes += size
        }
        return stem.isEmpty ? "image" : stem
    }
}
