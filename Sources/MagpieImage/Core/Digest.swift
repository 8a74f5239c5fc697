internal import CMagpie

/// Digests and checksums from the C core: the one place Swift calls them.
package enum Digest {
    /// MD5 (RFC 1321) of `key`'s UTF-8 bytes, as two words (first byte most significant).
    package static func md5Words(_ key: String) -> (UInt64, UInt64) {
        var key = key
        var digest = (UInt64(0), UInt64(0))
        key.withUTF8 { k in
            withUnsafeMutableBytes(of: &digest) { magpie_md5(k.baseAddress, k.count, $0.baseAddress) }
        }
        return digest
    }

    /// MD5 of `bytes`, 16 bytes.
    package static func md5(_ bytes: some Collection<UInt8>) -> [UInt8] {
        let array = Array(bytes)
        var digest = [UInt8](repeating: 0, count: 16)
        array.withUnsafeBufferPointer { p in
            digest.withUnsafeMutableBufferPointer { magpie_md5(p.baseAddress, p.count, $0.baseAddress) }
        }
        return digest
    }

    /// MD5 of `key`'s UTF-8 bytes as 32 lowercase hex digits.
    package static func md5Hex(_ key: String) -> String {
        var key = key
        return key.withUTF8 { utf8 in
            String(unsafeUninitializedCapacity: 33) { buffer in
                buffer.withMemoryRebound(to: CChar.self) {
                    magpie_md5_hex(utf8.baseAddress, utf8.count, $0.baseAddress)
                }
                return 32
            }
        }
    }

    /// CRC-32C (Castagnoli) of `bytes`: the disk cache's entry checksum.
    package static func crc32c(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        UInt32(magpie_crc32c(0, bytes.baseAddress, bytes.count))
    }

    /// CRC-32C of `bytes`.
    package static func crc32c(_ bytes: [UInt8]) -> UInt32 { bytes.withUnsafeBytes { crc32c($0) } }

    /// SHA-256 (FIPS 180-4) of `bytes`.
    package static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        bytes.withUnsafeBufferPointer { b in
            digest.withUnsafeMutableBufferPointer { magpie_sha256(b.baseAddress, b.count, $0.baseAddress) }
        }
        return digest
    }

    /// HMAC-SHA-256 (RFC 2104) of `message` under `key`.
    package static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
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

    /// HMAC-SHA-1 (RFC 2104) of `message` under `key`: thumbor's URL signatures.
    package static func hmacSHA1(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var mac = [UInt8](repeating: 0, count: 20)
        key.withUnsafeBufferPointer { k in
            message.withUnsafeBufferPointer { m in
                mac.withUnsafeMutableBufferPointer {
                    magpie_hmac_sha1(k.baseAddress, k.count, m.baseAddress, m.count, $0.baseAddress)
                }
            }
        }
        return mac
    }

    /// Lowercase hex of `bytes`.
    package static func hex(_ bytes: some Collection<UInt8>) -> String {
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
