internal import CMagpie

/// Cache keys and the file names the disk cache stores them under.
public enum CacheKey {
    /// MD5 (RFC 1321) of the key's UTF-8 bytes as 32 lowercase hex digits.
    public static func md5Hex(_ key: String) -> String {
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

    /// The 16-byte MD5 digest of `bytes`.
    public static func md5(_ bytes: some Collection<UInt8>) -> [UInt8] {
        let array = Array(bytes)
        var digest = [UInt8](repeating: 0, count: 16)
        array.withUnsafeBufferPointer { p in
            digest.withUnsafeMutableBufferPointer { magpie_md5(p.baseAddress, p.count, $0.baseAddress) }
        }
        return digest
    }

    /// The disk-cache file name for `key`: its MD5 hex, plus `.pathExtension` when given.
    public static func fileName(for key: String, pathExtension: String? = nil) -> String {
        let base = md5Hex(key)
        guard let pathExtension, !pathExtension.isEmpty else { return base }
        return base + "." + pathExtension
    }
}
