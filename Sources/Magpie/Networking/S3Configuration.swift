#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where `s3://bucket/key` sources are read from: AWS or any S3-compatible store (MinIO,
/// Cloudflare R2, Ceph), the region requests are signed for, and the key that signs them.
public struct S3Configuration: Sendable, Hashable {
    /// How a bucket is named in the request: `https://endpoint/bucket/key` or
    /// `https://bucket.endpoint/key`.
    public enum Addressing: Sendable, Hashable {
        case path
        case virtualHosted
    }

    /// The region requests are signed for (`us-east-1` unless given).
    public var region: String
    /// An S3-compatible endpoint (`http://127.0.0.1:9000`); nil: AWS's, `https://s3.REGION.amazonaws.com`.
    public var endpoint: URL?
    /// Path-style by default with an endpoint (imgproxy's `IMGPROXY_S3_ENDPOINT_USE_PATH_STYLE`
    /// default, what MinIO expects), virtual-hosted on AWS. A bucket whose name has a dot is
    /// always addressed path-style over https: its host name would not match AWS's certificate.
    public var addressing: Addressing
    /// nil: requests go unsigned (public buckets).
    public var credentials: AWSCredentials?

    public init(
        region: String = "us-east-1", endpoint: URL? = nil, addressing: Addressing? = nil,
        credentials: AWSCredentials? = nil
    ) {
        self.region = region
        self.endpoint = endpoint
        self.addressing = addressing ?? (endpoint == nil ? .virtualHosted : .path)
        self.credentials = credentials
    }

    /// The key from `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN`; the
    /// region from `AWS_REGION`, else `AWS_DEFAULT_REGION`, else `fallbackRegion`.
    public static func fromEnvironment(
        _ environment: [String: String], endpoint: URL? = nil, addressing: Addressing? = nil,
        fallbackRegion: String = "us-east-1"
    ) -> S3Configuration {
        let region = [environment["AWS_REGION"], environment["AWS_DEFAULT_REGION"]].lazy.compactMap { $0 }
            .first { !$0.isEmpty }
        return S3Configuration(
            region: region ?? fallbackRegion, endpoint: endpoint, addressing: addressing,
            credentials: AWSCredentials.fromEnvironment(environment))
    }

    /// Whether `endpoint` can stand for an S3 endpoint: http or https, a host, no credentials,
    /// query or fragment.
    public static func isValidEndpoint(_ endpoint: URL) -> Bool {
        guard let scheme = endpoint.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = endpoint.host(percentEncoded: true), !host.isEmpty
        else { return false }
        return endpoint.user == nil && endpoint.password == nil && endpoint.query == nil && endpoint.fragment == nil
    }

    /// A bucket name S3 accepts: 3 to 63 lower-case letters, digits, dots and hyphens, starting and
    /// ending with a letter or digit; path-style also takes the legacy upper case and underscores.
    func isValidBucket(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (3...63).contains(bytes.count) else { return false }
        func alnum(_ b: UInt8) -> Bool { (0x61...0x7A).contains(b) || (0x30...0x39).contains(b) }
        let legacy = addressing == .path
        let inner = bytes.allSatisfy {
            alnum($0) || $0 == 0x2E || $0 == 0x2D || (legacy && ((0x41...0x5A).contains($0) || $0 == 0x5F))
        }
        return inner && (alnum(bytes.first!) || legacy) && (alnum(bytes.last!) || legacy)
            && !name.contains("..")
    }

    /// The HTTP URL of `key` (raw bytes) in `bucket`, with its version when given.
    func objectURL(bucket: String, key: [UInt8], versionID: String?) -> URL? {
        let base = endpoint ?? URL(string: "https://s3.\(region).amazonaws.com")!
        guard var parts = URLComponents(url: base, resolvingAgainstBaseURL: false), let host = parts.host else {
            return nil
        }
        let prefix =
            parts.percentEncodedPath.hasSuffix("/")
            ? String(parts.percentEncodedPath.dropLast()) : parts.percentEncodedPath
        let encodedKey = AWSSignatureV4.encode(key, keepingSlash: true)
        let dotted = bucket.contains(".") && parts.scheme?.lowercased() == "https"
        // An address literal has no subdomains: path-style.
        let literal = IPAddress(host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host) != nil
        if addressing == .virtualHosted && !dotted && !literal {
            parts.host = "\(bucket).\(host)"
            parts.percentEncodedPath = "\(prefix)/\(encodedKey)"
        } else {
            parts.percentEncodedPath = "\(prefix)/\(bucket)/\(encodedKey)"
        }
        if let versionID {
            parts.percentEncodedQuery = "versionId=" + AWSSignatureV4.encode(versionID.utf8, keepingSlash: false)
        }
        return parts.url
    }
}

extension S3Configuration {
    /// A setting given as text (a flag, a variable) that cannot stand.
    public struct SettingError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The configuration command-line settings describe: the key and region from the environment
    /// (``fromEnvironment(_:endpoint:addressing:fallbackRegion:)``), `region` over them, `endpoint`
    /// checked (``isValidEndpoint(_:)``), virtual-hosted addressing when asked.
    public static func fromSettings(
        environment: [String: String], endpoint: String?, region: String?, virtualHosted: Bool
    ) throws(SettingError) -> S3Configuration {
        var url: URL?
        if let endpoint {
            guard let parsed = URL(string: endpoint), isValidEndpoint(parsed) else {
                throw SettingError(description: "--s3-endpoint must be http(s)://host[:port][/path]")
            }
            url = parsed
        }
        if let region, region.isEmpty || !region.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != 0x2F }) {
            throw SettingError(description: "--s3-region must be a region name (us-east-1)")
        }
        var configuration = fromEnvironment(
            environment, endpoint: url, addressing: virtualHosted ? .virtualHosted : nil)
        if let region { configuration.region = region }
        return configuration
    }
}
