/// Python's `urllib.parse.quote` and `unquote_to_bytes`, which thumbor and tornado apply to a
/// path's parts: quoting keeps letters, digits, `_.-~` and the `safe` characters and writes every
/// other byte of the UTF-8 as `%XX`; unquoting decodes each `%XX` (a `%` not followed by two hex
/// digits stays as it is) and the result must be UTF-8 (tornado answers 400 otherwise).
enum ThumborQuoting {
    static func quote(_ s: String, safe: String) -> String {
        let keep = Set(safe.utf8)
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count)
        for b in s.utf8 {
            let unreserved =
                (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
                || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || "_.-~".utf8.contains(b)
            if unreserved || keep.contains(b) {
                out.append(b)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func unquote(_ s: String) -> String? {
        let u = Array(s.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(u.count)
        var i = 0
        func hexValue(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        while i < u.count {
            if u[i] == UInt8(ascii: "%"), i + 2 < u.count,
                let hi = hexValue(u[i + 1]), let lo = hexValue(u[i + 2])
            {
                out.append(hi << 4 | lo)
                i += 3
            } else {
                out.append(u[i])
                i += 1
            }
        }
        return String(validating: out, as: UTF8.self)
    }
}
