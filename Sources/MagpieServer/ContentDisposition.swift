#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// imgproxy's `fn|filename` and `att|return_attachment` as a `Content-Disposition` header (RFC 6266):
/// `inline` or `attachment`, a `filename` of safe ASCII for old clients and a `filename*` with the
/// name in UTF-8, percent-encoded (RFC 8187), so nothing the request carried is echoed unescaped.
enum ContentDisposition {
    /// A filename from a URL option: percent-encoded UTF-8, or base64url when `encoded`; `nil` when
    /// it is empty, longer than 255 bytes, not UTF-8, or holds a control character.
    static func filename(_ raw: String, encoded: Bool) -> String? {
        guard let bytes = encoded ? base64URL(raw) : percentDecoded(raw) else { return nil }
        guard !bytes.isEmpty, bytes.count <= 255, !bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }),
            let name = String(validating: bytes, as: UTF8.self)
        else { return nil }
        return name
    }

    /// `%XX` sequences decoded (a `%` not followed by two hex digits: nil).
    static func percentDecoded(_ s: String) -> [UInt8]? {
        var out: [UInt8] = []
        var it = s.utf8.makeIterator()
        while let c = it.next() {
            guard c == UInt8(ascii: "%") else {
                out.append(c)
                continue
            }
            guard let h = it.next().flatMap(hex), let l = it.next().flatMap(hex) else { return nil }
            out.append(h << 4 | l)
        }
        return out
    }

    /// base64url without padding (or with), decoded; nil for any other character.
    static func base64URL(_ s: String) -> [UInt8]? {
        var out: [UInt8] = []
        var acc: UInt32 = 0, bits = 0
        for c in s.utf8 where c != UInt8(ascii: "=") {
            let v: UInt32
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): v = UInt32(c - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): v = UInt32(c - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = UInt32(c - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "-"), UInt8(ascii: "+"): v = 62
            case UInt8(ascii: "_"), UInt8(ascii: "/"): v = 63
            default: return nil
            }
            acc = acc << 6 | v
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: acc >> UInt32(bits)))
            }
        }
        return out
    }

    private static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// The stem of a source URL's last path segment ("photo" for `…/photo.jpg`), or "image".
    static func stem(of source: URL) -> String {
        let last = source.lastPathComponent
        let stem = last.split(separator: ".", omittingEmptySubsequences: false).dropLast().joined(separator: ".")
        let name = stem.isEmpty ? last : stem
        return name.isEmpty || name == "/" ? "image" : name
    }

    /// The header's value for `stem` plus the result's extension.
    static func value(stem: String, ext: String, attachment: Bool) -> String {
        let name = stem + "." + ext
        let ascii = String(
            String.UnicodeScalarView(
                name.unicodeScalars.map { s in
                    s.isASCII
                        && (s.properties.isAlphabetic || ("0"..."9").contains(s) || "._-".unicodeScalars.contains(s))
                        ? s : "_"
                }))
        // RFC 8187 attr-char: ALPHA / DIGIT / "!#$&+-.^_`|~"; every other byte percent-encoded.
        let attr = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$&+-.^_`|~".utf8)
        let digits = Array("0123456789ABCDEF".utf8)
        var encoded: [UInt8] = []
        for b in name.utf8 {
            if attr.contains(b) {
                encoded.append(b)
            } else {
                encoded += [UInt8(ascii: "%"), digits[Int(b >> 4)], digits[Int(b & 15)]]
            }
        }
        let attrValue = String(decoding: encoded, as: UTF8.self)
        return "\(attachment ? "attachment" : "inline"); filename=\"\(ascii)\"; filename*=UTF-8''\(attrValue)"
    }
}
