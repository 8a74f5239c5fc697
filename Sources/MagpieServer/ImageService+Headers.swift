extension ImageService {
    /// imgproxy's CORS headers (`IMGPROXY_ALLOW_ORIGIN`).
    static func cors(_ origin: String) -> [(name: String, value: String)] {
        [("Access-Control-Allow-Origin", origin), ("Access-Control-Allow-Methods", "GET, OPTIONS")]
    }

    /// `text` fit for a header value inside `<…>` (the canonical `Link`): every byte outside
    /// printable ASCII, and `<`, `>`, `"`, `\`, percent-encoded, so a source can never end the
    /// header or the link early whatever it holds.
    static func headerSafe(_ text: String) -> String {
        var out: [UInt8] = []
        for b in text.utf8 {
            if (0x21...0x7E).contains(b), !"<>\"\\".utf8.contains(b) {
                out.append(b)
            } else {
                let hex = Array("0123456789ABCDEF".utf8)
                out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
