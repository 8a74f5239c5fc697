internal import CMagpie

/// Keyed digests from the C core.
enum Digest {
    /// HMAC-SHA-256 (RFC 2104) of `message` under `key`.
    static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var mac = [UInt8](repeating: 0, count: 32)
        key.withUnsafeBufferPointer { k in
            message.withUnsafeBufferPointer { m in
                mac.withUnsafeMutableBufferPointer {
                    magpie_hmac_sha256(k.baseAddress, k.count, m.baseAddress, m.count, $0.baseAddress)
                }
            }
        }
        return mac
    }

    /// Lowercase hex of `bytes`.
    static func hex(_ bytes: some Collection<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
