#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An AWS access key: what signs a request, from `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and
/// `AWS_SESSION_TOKEN` (temporary credentials) or given.
public struct AWSCredentials: Sendable, Hashable {
    public var accessKeyID: String
    public var secretAccessKey: String
    public var sessionToken: String?

    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        (self.accessKeyID, self.secretAccessKey, self.sessionToken) = (accessKeyID, secretAccessKey, sessionToken)
    }

    /// The standard variables; nil unless both the key ID and the secret are set and not empty.
    public static func fromEnvironment(_ environment: [String: String]) -> AWSCredentials? {
        guard let id = environment["AWS_ACCESS_KEY_ID"], !id.isEmpty,
            let secret = environment["AWS_SECRET_ACCESS_KEY"], !secret.isEmpty
        else { return nil }
        let token = environment["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        return AWSCredentials(accessKeyID: id, secretAccessKey: secret, sessionToken: token)
    }
}

/// AWS Signature Version 4 (the `Authorization` header form) for requests without a body, as S3's
/// GetObject: the canonical request, the string to sign and the derived signing key, as AWS's
/// documentation and its published test suite define them (the tests check both). SHA-256 and
/// HMAC-SHA-256 are the C core's (tested against FIPS 180-4 and RFC 4231), not swift-crypto's:
/// one more copy of BoringSSL would add minutes to every clean build for two functions.
public struct AWSSignatureV4: Sendable {
    public let credentials: AWSCredentials
    public let region: String
    public let service: String

    /// The last day's signing key: it changes once a day, and deriving it is four HMACs, most of
    /// what signing costs. Shared by copies of this signer.
    private let lastKey = Locked<(day: String, key: [UInt8])?>(nil)

    public init(credentials: AWSCredentials, region: String, service: String = "s3") {
        (self.credentials, self.region, self.service) = (credentials, region, service)
    }

    /// The SHA-256 of an empty body, in hex (what a GET signs as its payload).
    public static let emptyPayloadHash = Digest.hex(Digest.sha256([]))

    /// The headers to send with a `method` request of `url` that already carries `headers` (its
    /// `Host` is added from the URL when missing): `x-amz-date`, `x-amz-content-sha256` (S3 wants
    /// it), `x-amz-security-token` with temporary credentials, and `Authorization`. Every header
    /// given and added is signed.
    public func signedHeaders(
        method: String, url: URL, headers: [(name: String, value: String)] = [], date: Date,
        payloadHash: String = AWSSignatureV4.emptyPayloadHash
    ) -> [(name: String, value: String)] {
        let (day, stamp) = Self.timestamps(date)
        var all = headers
        if !all.contains(where: { $0.name.lowercased() == "host" }), let host = Self.host(url) {
            all.append(("Host", host))
        }
        var added: [(name: String, value: String)] = [("x-amz-date", stamp)]
        if service == "s3" { added.append(("x-amz-content-sha256", payloadHash)) }
        if let token = credentials.sessionToken { added.append(("x-amz-security-token", token)) }
        all += added
        let (canonical, signed) = canonicalRequest(method: method, url: url, headers: all, payloadHash: payloadHash)
        let scope = "\(day)/\(region)/\(service)/aws4_request"
        let toSign = "AWS4-HMAC-SHA256\n\(stamp)\n\(scope)\n" + Digest.hex(Digest.sha256(Array(canonical.utf8)))
        let signature = Digest.hex(Digest.hmacSHA256(key: signingKey(day: day), message: Array(toSign.utf8)))
        added.append(
            (
                "Authorization",
                "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope), SignedHeaders=\(signed), "
                    + "Signature=\(signature)"
            ))
        return added
    }

    /// The canonical request and the signed header names (`host;x-amz-date`).
    func canonicalRequest(method: String, url: URL, headers: [(name: String, value: String)], payloadHash: String)
        -> (String, String)
    {
        // Header names lower-cased and sorted, values trimmed with inner runs of spaces as one.
        var byName: [String: [String]] = [:]
        for (name, value) in headers {
            let squeezed = value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            byName[name.lowercased(), default: []].append(squeezed)
        }
        let names = byName.keys.sorted()
        let canonicalHeaders = names.map { "\($0):\(byName[$0]!.joined(separator: ","))\n" }.joined()
        let signed = names.joined(separator: ";")
        let path = url.path(percentEncoded: true)
        let uri = path.isEmpty ? "/" : Self.encodePath(path)
        let query = Self.canonicalQuery(url.query(percentEncoded: true) ?? "")
        return ([method, uri, query, canonicalHeaders, signed, payloadHash].joined(separator: "\n"), signed)
    }

    /// kSigning = HMAC(HMAC(HMAC(HMAC("AWS4" + secret, day), region), service), "aws4_request").
    func signingKey(day: String) -> [UInt8] {
        if let last = lastKey.withLock({ $0 }), last.day == day { return last.key }
        let key = Self.derivedKey(secret: credentials.secretAccessKey, day: day, region: region, service: service)
        lastKey.withLock { $0 = (day, key) }
        return key
    }

    static func derivedKey(secret: String, day: String, region: String, service: String) -> [UInt8] {
        var key = Digest.hmacSHA256(key: Array("AWS4\(secret)".utf8), message: Array(day.utf8))
        for part in [region, service, "aws4_request"] { key = Digest.hmacSHA256(key: key, message: Array(part.utf8)) }
        return key
    }

    /// The host as signed: with its port unless it is the scheme's default.
    static func host(_ url: URL) -> String? {
        guard let host = url.host(percentEncoded: false) else { return nil }
        let bracketed = host.contains(":") ? "[\(host)]" : host
        guard let port = url.port, port != (url.scheme == "https" ? 443 : 80) else { return bracketed }
        return "\(bracketed):\(port)"
    }

    /// `20150830` and `20150830T123600Z`, in UTC.
    static func timestamps(_ date: Date) -> (String, String) {
        HTTPDate.awsStamps(seconds: Int(date.timeIntervalSince1970.rounded(.down)))
    }

    /// Every byte but RFC 3986's unreserved ones percent-encoded (upper-case hex); `/` kept when
    /// `slash` (a path).
    static func encode(_ bytes: some Sequence<UInt8>, keepingSlash slash: Bool) -> String {
        var out = ""
        for b in bytes {
            let unreserved =
                (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || (0x30...0x39).contains(b) || b == 0x2D
                || b == 0x2E || b == 0x5F || b == 0x7E || (slash && b == 0x2F)
            if unreserved {
                out.unicodeScalars.append(Unicode.Scalar(b))
            } else {
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(hex[Int(b >> 4)])
                out.unicodeScalars.append(hex[Int(b & 15)])
            }
        }
        return out
    }

    /// A percent-encoded path, decoded and encoded again canonically (S3's rule: once, `/` kept).
    static func encodePath(_ path: String) -> String { encode(decoded(Substring(path)), keepingSlash: true) }

    /// The bytes `%XY` escapes stand for (a `%` not followed by two hex digits stays as it is).
    static func decoded(_ text: Substring) -> [UInt8] {
        let bytes = Array(text.utf8)
        func hex(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: return c - 0x30
            case 0x41...0x46: return c - 0x37
            case 0x61...0x66: return c - 0x57
            default: return nil
            }
        }
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x25, i + 2 < bytes.count, let hi = hex(bytes[i + 1]), let lo = hex(bytes[i + 2]) {
                out.append(hi << 4 | lo)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return out
    }

    /// The query's parameters, each name and value decoded and encoded canonically, sorted by
    /// name then value, `=` always present.
    static func canonicalQuery(_ query: String) -> String {
        guard !query.isEmpty else { return "" }
        let pairs = query.split(separator: "&", omittingEmptySubsequences: true).map { item -> (String, String) in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func canonical(_ s: Substring) -> String { encode(decoded(s), keepingSlash: false) }
            return (canonical(parts[0]), parts.count > 1 ? canonical(parts[1]) : "")
        }
        return pairs.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }.map { "\($0.0)=\($0.1)" }.joined(
            separator: "&")
    }
}
