import Magpie
import MagpieImage

extension ImageService {
    /// imgproxy's `raw` and `skip_processing`: the source's own bytes, fetched as any source is
    /// (the address policy, the byte limit, the source cache, one download for all who ask).
    /// `raw` answers them whatever they are (an image by its sniffed type: the downloader refuses a
    /// body that is not one); `skp` only when the source's format is listed and the output asked
    /// for is `auto` or that format, and only within the source limits; `nil`: process as usual.
    func passThrough(_ plan: Plan, _ pass: Plan.PassThrough) async -> Result<VariantMemory.Variant?, ServiceError> {
        var o = plan.options
        o.processor = DefaultImageProcessor()
        o.onlyLoadFirstFrame = false
        o.cache.serializer = nil
        let result: RetrieveDataResult
        switch await retrieve(plan, options: o) {
        case .success(let r): result = r
        case .failure(let e): return .failure(e)
        }
        if case .thumborMeta(let meta) = pass {
            guard let document = try? meta.document(for: result.data) else { return .failure(.notAnImage) }
            return .success(
                VariantMemory.Variant(
                    data: document, format: result.format, etag: "\"" + Digest.hex(Digest.md5(document)) + "\"",
                    lastModified: nil, freshness: result.freshness, contentType: meta.contentType))
        }
        if case .skip(let formats, let format) = pass {
            guard formats.contains(result.format.fileExtension),
                format == "auto" || format == result.format.fileExtension
            else { return .success(nil) }
            guard fitsLimits(result.data, plan) else { return .failure(.notAnImage) }
        }
        return .success(
            VariantMemory.Variant(
                data: result.data, format: result.format,
                etag: "\"" + Digest.hex(Digest.md5(result.data)) + "\"",
                lastModified: result.lastModified.flatMap { HTTPDate.parse($0) == nil ? nil : $0 },
                freshness: result.freshness))
    }

    /// Whether a source skipped past processing is still within the limits a processed one would
    /// be held to (the request's own, `msr` and the rest, included).
    private func fitsLimits(_ data: [UInt8], _ plan: Plan) -> Bool {
        guard let limits = plan.sourceLimits, data.count <= limits.bytes,
            let info = try? ImageInfo(probing: data)
        else { return false }
        let frames = max(1, info.frameCount)
        let area = info.width.multipliedReportingOverflow(by: info.height)
        let all = area.partialValue.multipliedReportingOverflow(by: frames)
        return !area.overflow && !all.overflow && area.partialValue <= limits.pixels && frames <= limits.frames
            && all.partialValue <= limits.framePixels
            && (frames == 1 || area.partialValue <= limits.animationFramePixels)
    }
}
