#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The `s3://` transport: `s3://bucket/key` is S3's GetObject of `key` in `bucket`, signed with
/// AWS Signature Version 4 and sent through an HTTP transport, so the downloader's limits and the
/// address policy apply to the endpoint as to any origin. `?versionId=ID` (or imgproxy's bare
/// `?ID`) asks for one version of the object. The conditional headers the downloader sends
/// (`If-None-Match` from the object's ETag, `If-Modified-Since` from its Last-Modified) are
/// passed on, so a cached object is revalidated with a 304. S3's answers are passed back as
/// statuses (403, 404, 5xx); a redirect (a bucket in another region) is an error, never
/// followed, so a signed request cannot be sent somewhere else. The response names the `s3://` URL.
public struct S3DataLoader: DataLoading {
    public let configuration: S3Configuration
    let http: any DataLoading
    let now: @Sendable () -> Date
    /// One signer for the loader's life, so its day's signing key is derived once a day.
    let signer: AWSSignatureV4?

    /// - Parameters:
    ///   - configuration: the endpoint, region, addressing style and credentials.
    ///   - http: what sends the request (the downloader's HTTP transport, with its address policy).
    ///   - now: the time requests are signed at.
    public init(
        configuration: S3Configuration, http: any DataLoading, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.configuration = configuration
        self.http = http
        self.now = now
        self.signer = configuration.credentials.map { AWSSignatureV4(credentials: $0, region: configuration.region) }
    }

    /// A bucket, a key and a version, as an `s3://` URL names them.
    struct Object: Sendable, Hashable {
        var bucket: String
        var key: [UInt8]
        var versionID: String?
    }

    public func load(_ request: DataRequest, progress: @escaping @Sendable (Int, Int?) -> Void) async throws
        -> DataResponse
    {
        guard let object = Self.object(request.url), configuration.isValidBucket(object.bucket),
            let target = configuration.objectURL(bucket: object.bucket, key: object.key, versionID: object.versionID)
        else { throw ImageDownloadError.invalidURL(request.url.absoluteString) }
        var inner = request
        inner.url = target
        // Only the transport signs: no caller's Authorization or x-amz-* field goes out.
        inner.headers.removeAll {
            HTTPHeaderField.namesMatch($0.name, "Authorization") || $0.name.lowercased().hasPrefix("x-amz-")
        }
        if let signer {
            for field in signer.signedHeaders(method: "GET", url: target, date: now()) {
                inner.headers.append(HTTPHeaderField(field.name, field.value))
            }
        }
        var response: DataResponse
        do {
            response = try await http.load(inner, progress: progress)
        } catch var cut as DataTransferInterrupted {
            // A cut body is resumed under the `s3://` name, with a newly signed request.
            cut.partial.url = request.url
            throw cut
        }
        response.url = request.url
        if response.isRedirect {
            response.headers.removeAll { HTTPHeaderField.namesMatch($0.name, "Location") }
        }
        return response
    }

    public func shutdown() async throws {}

    /// The object `url` names; nil unless it is `s3://bucket/key` with a key (of at most 1024
    /// bytes, no NUL, no `.` or `..` segment a proxy might resolve) and at most a version.
    static func object(_ url: URL) -> Object? {
        guard url.scheme?.lowercased() == "s3", url.user == nil, url.password == nil, url.port == nil,
            url.fragment == nil, let bucket = url.host(percentEncoded: true), !bucket.isEmpty
        else { return nil }
        let path = url.path(percentEncoded: true)
        guard path.hasPrefix("/") else { return nil }
        let key = AWSSignatureV4.decoded(path.dropFirst())
        guard !key.isEmpty, key.count <= 1024, !key.contains(0) else { return nil }
        for segment in key.split(separator: 0x2F, omittingEmptySubsequences: false)
        where segment.elementsEqual([0x2E]) || segment.elementsEqual([0x2E, 0x2E]) {
            return nil
        }
        guard String(validating: key, as: UTF8.self) != nil else { return nil }
        var version: String?
        if let query = url.query(percentEncoded: true), !query.isEmpty {
            let bare = !query.contains("=") && !query.contains("&")
            guard bare || query.hasPrefix("versionId="), !query.dropFirst(bare ? 0 : 10).contains("&") else {
                return nil
            }
            let bytes = AWSSignatureV4.decoded(query.dropFirst(bare ? 0 : 10))
            guard !bytes.isEmpty, let text = String(validating: bytes, as: UTF8.self) else { return nil }
            version = text
        }
        return Object(bucket: bucket, key: key, versionID: version)
    }
}
