import MagpieImage

/// thumbor's URL signature (libthumbor's `base64_hmac_sha1` signer, thumbor's default
/// `URL_SIGNER`): `base64url(HMAC-SHA1(SECURITY_KEY, path))` with its `=` padding (28
/// characters), where `path` is the request path as sent after `/{signature}/`.
public enum ThumborSignature {
    public static func sign(_ path: String, key: String) -> String {
        var text = Base64URL.encode(Digest.hmacSHA1(key: Array(key.utf8), message: Array(path.utf8)))
        while text.utf8.count % 4 != 0 { text += "=" }
        return text
    }

    /// Whether `signature` (the first segment, percent-decoded) signs `path` under `key`,
    /// compared in constant time. thumbor compares the segment as given: a signature without its
    /// padding does not match.
    static func verify(_ signature: String, path: String, key: String) -> Bool {
        // thumbor unquotes the (already decoded) segment once more before comparing.
        let given = Array((ThumborQuoting.unquote(signature) ?? signature).utf8)
        let expected = Array(sign(path, key: key).utf8)
        var difference = UInt8(given.count == expected.count ? 0 : 1)
        for i in 0..<expected.count { difference |= expected[i] ^ (i < given.count ? given[i] : 0) }
        return difference == 0
    }
}

extension ThumborSignature {
    /// Whether `path` carries a valid signature under `key` (an `unsafe/` path carries none).
    public static func isValid(_ path: ThumborPath, key: String) -> Bool {
        guard let signature = path.signature else { return false }
        return verify(signature, path: path.signed, key: key)
    }
}
