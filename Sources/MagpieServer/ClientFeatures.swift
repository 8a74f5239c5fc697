import Magpie

/// What a request's headers tell of its client, as imgproxy's `clientfeatures` detector reads
/// them: the formats `Accept` names that the server negotiates (`--auto-webp`, `--enforce-webp`,
/// and AVIF's and JPEG XL's), and with client hints on (`IMGPROXY_ENABLE_CLIENT_HINTS`) the device pixel ratio
/// (`Sec-CH-DPR`, else `DPR`; above 0, at most 8) and the width (`Sec-CH-Width`, else `Width`).
struct ClientFeatures: Sendable, Hashable {
    var preferWebP = false
    var enforceWebP = false
    var preferAVIF = false
    var enforceAVIF = false
    var preferJXL = false
    var enforceJXL = false
    var dpr: Double?
    var width: Int?

    static let maxDPR = 8.0

    init() {}

    init(_ request: ServiceRequest, _ c: ServiceConfiguration) {
        let accept = request.header("Accept") ?? ""
        if (c.autoWebP || c.enforceWebP) && accept.contains("image/webp") {
            (preferWebP, enforceWebP) = (true, c.enforceWebP)
        }
        if (c.autoAVIF || c.enforceAVIF) && accept.contains("image/avif") && ImageFormat.avif.isEncodable {
            (preferAVIF, enforceAVIF) = (true, c.enforceAVIF)
        }
        if (c.autoJXL || c.enforceJXL) && accept.contains("image/jxl") && ImageFormat.jxl.isEncodable {
            (preferJXL, enforceJXL) = (true, c.enforceJXL)
        }
        // thumbor's AUTO_WEBP and AUTO_AVIF read the same header (and so key the plans' memo).
        if let t = c.thumbor {
            preferWebP = preferWebP || (t.autoWebP && accept.contains("image/webp"))
            preferAVIF = preferAVIF || (t.autoAVIF && accept.contains("image/avif"))
        }
        guard c.clientHints else { return }
        for name in ["Sec-CH-DPR", "DPR"] {
            guard let text = request.header(name), !text.isEmpty else { continue }
            if let d = try? OptionArgs.decimal(text, 0...Self.maxDPR), d > 0 {
                dpr = d
                break
            }
        }
        for name in ["Sec-CH-Width", "Width"] {
            guard let text = request.header(name), !text.isEmpty else { continue }
            if text.utf8.count <= 9, let w = Int(text), w > 0 {
                // A hint past the server's largest result asks for that (a header is no reason
                // to refuse a request).
                width = min(w, c.maxResultDimension)
                break
            }
        }
    }

    /// The format a still is written in where the request names none (`nil`: the source's own
    /// rule) and where it names `named`: JPEG XL where preferred, else AVIF, else WebP; an
    /// enforced one replaces a named format too, as imgproxy's `ENFORCE_*` do.
    func format(named: String?) -> String? {
        if let named {
            if enforceJXL { return "jxl" }
            if enforceAVIF { return "avif" }
            if enforceWebP { return "webp" }
            return named
        }
        if preferJXL { return "jxl" }
        if preferAVIF { return "avif" }
        if preferWebP { return "webp" }
        return nil
    }

    /// The format an animated source is written in (JPEG XL and AVIF are stills here, as in
    /// imgproxy, so it falls to WebP or the format named; `nil`: the source's own rule).
    func animatedFormat(named: String?) -> String? {
        if named == nil ? preferWebP : enforceWebP { return "webp" }
        return named
    }
}
