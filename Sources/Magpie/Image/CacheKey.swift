/// Cache keys and the file names the disk cache stores them under.
public enum CacheKey {
    /// MD5 (RFC 1321) of the key's UTF-8 bytes as 32 lowercase hex digits.
    public static func md5Hex(_ key: String) -> String {
        Digest.md5Hex(key)
    }

    /// The 16-byte MD5 digest of `bytes`.
    public static func md5(_ bytes: some Collection<UInt8>) -> [UInt8] {
        Digest.md5(bytes)
    }

    /// The disk-cache file name for `key`: its MD5 hex, plus `.pathExtension` when given.
    public static func fileName(for key: String, pathExtension: String? = nil) -> String {
        let base = md5Hex(key)
        guard let pathExtension, !pathExtension.isEmpty else { return base }
        return base + "." + pathExtension
    }
}
