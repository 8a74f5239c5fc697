import Magpie
import MagpieImage

extension ImageService {
    func success(
        _ result: VariantMemory.Variant, cache: String, plan: Plan, request: ServiceRequest, id: String
    ) -> ServiceResponse {
        let etag =
            configuration.etagBuster.isEmpty
            ? result.etag : "\"" + Digest.hex(Digest.md5(Array((result.etag + configuration.etagBuster).utf8))) + "\""
        var headers = standardHeaders(id, result.contentType ?? Self.contentType(result.format))
        headers += [
            ("Cache-Control", cacheControl(plan, result.freshness)), ("ETag", etag), ("X-Magpie-Cache", cache),
        ]
        if let vary = plan.vary { headers.append(("Vary", vary)) }
        if configuration.setsCanonicalHeader, ["http", "https"].contains(plan.source.scheme) {
            headers.append(("Link", "<\(Self.headerSafe(plan.source.absoluteString))>; rel=\"canonical\""))
        }
        var modified = result.lastModified.flatMap { Self.busted($0, configuration.lastModifiedBuster) }
        if plan.thumbor, let t = configuration.thumbor {
            headers = Self.thumborHeaders(headers, plan, t, now: now())
            if !t.lastModified { modified = nil }
        }
        if let modified { headers.append(("Last-Modified", modified)) }
        if let d = plan.disposition {
            headers.append(
                (
                    "Content-Disposition",
                    ContentDisposition.value(stem: d.stem, ext: result.format.fileExtension, attachment: d.attachment)
                ))
        }
        let tagged = !plan.thumbor || configuration.thumbor?.etags != false
        if Self.notModified(request, etag: tagged ? etag : nil, lastModified: modified) {
            return ServiceResponse(status: 304, headers: headers.filter { $0.name != "Content-Type" })
        }
        headers.append(("Content-Length", String(result.data.count)))
        return ServiceResponse(status: 200, headers: headers, body: result.data)
    }

    /// The origin's `Last-Modified`, or the buster where it is earlier (as imgproxy's
    /// `IMGPROXY_LAST_MODIFIED_BUSTER`); nil for a value that is no HTTP date (not forwarded).
    static func busted(_ lastModified: String, _ buster: Int?) -> String? {
        guard let buster else { return lastModified }
        guard let date = HTTPDate.parse(lastModified) else { return nil }
        return date.timeIntervalSince1970 < Double(buster) ? HTTPDate.format(seconds: buster) : lastModified
    }

    /// RFC 9110 §13.2.2: `If-None-Match` when the request has one (a tag of ours, or `*`), else
    /// `If-Modified-Since` against the origin's `Last-Modified` (no later than it: not modified).
    /// With no tag (thumbor's `ENABLE_ETAGS = False`) `If-None-Match` is not read at all, as
    /// tornado's `check_etag_header` reads it only beside an `Etag` it sent.
    static func notModified(_ request: ServiceRequest, etag: String?, lastModified: String?) -> Bool {
        if let etag, let match = request.header("If-None-Match") {
            // In bytes, with the list's optional white space around each tag (RFC 9110 §5.6.1).
            let blank = { (b: UInt8) in b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") }
            return match.utf8.split(separator: UInt8(ascii: ",")).contains { tag in
                let t = tag.drop(while: blank).reversed().drop(while: blank).reversed()
                return t.elementsEqual("*".utf8) || t.elementsEqual(etag.utf8) || t.elementsEqual(("W/" + etag).utf8)
            }
        }
        guard let since = request.header("If-Modified-Since").flatMap(HTTPDate.parse),
            let modified = lastModified.flatMap(HTTPDate.parse)
        else { return false }
        return modified <= since
    }
}
