import MagpieImage

/// imgproxy's URL signature: `base64url_nopad(HMAC-SHA256(key, salt ‖ path))`, the HMAC cut to
/// the configured size, where `path` is everything after the signature segment, its leading `/`
/// included.
public enum URLSignature {
    /// The signature of `path` (beginning with `/`) under `key`.
    public static func sign(_ path: String, with key: ServiceConfiguration.SigningKey, size: Int = 32) -> String {
        let mac = Digest.hmacSHA256(key: key.key, message: key.salt + Array(path.utf8))
        return Base64URL.encode(Array(mac.prefix(max(1, min(32, size)))))
    }

    /// Whether `signature` signs `path` under any of `keys`, compared in constant time (no early
    /// exit on the first differing byte, whichever key matches).
    static func verify(_ signature: String, path: String, keys: [ServiceConfiguration.SigningKey], size: Int) -> Bool {
        let given = Array(signature.utf8)
        var matched = false
        for key in keys {
            let expected = Array(sign(path, with: key, size: size).utf8)
            var difference = UInt8(given.count == expected.count ? 0 : 1)
            for i in 0..<expected.count { difference |= expected[i] ^ (i < given.count ? given[i] : 0) }
            matched = matched || difference == 0
        }
        return matched
    }
}
