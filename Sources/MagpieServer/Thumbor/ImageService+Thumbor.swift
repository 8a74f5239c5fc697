import Magpie
import MagpieImage

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension ImageService {
    /// Whether `request` goes to thumbor's front door: with thumbor's settings, every path but
    /// those under the imgproxy prefix (``PathRules/prefix``; with none, every path is thumbor's).
    /// Decided by the path alone, never by trying one grammar and then the other.
    func isThumbor(_ request: ServiceRequest) -> Bool {
        guard configuration.thumbor != nil else { return false }
        return configuration.paths.prefix.isEmpty || configuration.paths.unprefixed(request.target) == nil
    }

    /// A thumbor URL checked as thumbor's handler checks it (`check_image`): the route, `unsafe`
    /// or a signature (not both, not neither), the loader's `validate` (``ThumborSettings/allowedSources``),
    /// then the plan: the geometry and filters into a processor, the format and quality into the
    /// serializer, the same cache, single flight and address policy as imgproxy's URLs.
    func thumborPlan(_ request: ServiceRequest, _ settings: ThumborSettings) throws(ServiceError) -> Plan {
        let path = try ThumborPath.parse(request.target)
        guard !path.image.isEmpty else { throw .malformedPath }
        if path.unsafe == (path.signature != nil) { throw .badSignature }
        if path.unsafe {
            guard settings.allowsUnsafe else { throw .badSignature }
        } else {
            guard let key = settings.securityKey, ThumborSignature.isValid(path, key: key) else { throw .badSignature }
        }
        // `trim` is still to come (docs/thumbor.md): refused, not answered otherwise.
        // `smart` without detectors (thumbor's default DETECTORS is empty) crops as without it.
        guard path.trim == nil else { throw .badOption }
        let text = try Self.thumborSource(path.image, settings)
        let source = try checkedSource(text)
        let thumbor = ThumborRequest(path, settings: settings)
        if thumbor.failure != nil { throw .badOption }
        let accept = request.header("Accept") ?? ""
        // define_image_type: the format filter, else AUTO_WEBP, AUTO_AVIF for a client that
        // accepts it, else the source's own (JPEG where it has none that is written).
        var format = thumbor.format.map { $0 == "jpeg" ? "jpg" : $0 == "heif" ? "heic" : $0 } ?? "auto"
        if thumbor.format == nil {
            if settings.autoWebP, accept.contains("image/webp") {
                format = "webp"
            } else if settings.autoAVIF, accept.contains("image/avif") {
                format = "avif"
            }
        }
        let vary = (settings.autoWebP || settings.autoAVIF) && thumbor.format == nil ? "Accept" : nil
        var limits = sourceLimits(OutputOptions())
        limits.pixels = min(limits.pixels, settings.maxPixels)
        var resize = ThumborResize(geometry: thumbor.geometry)
        resize.appliesOrientation = settings.respectsOrientation
        resize.quality = configuration.decodeQuality
        resize.keepsColorProfile = configuration.keepsColorProfile && !thumbor.stripsICC
        resize.noUpscale = thumbor.noUpscale
        resize.after = thumbor.after
        var formatQuality: [String: Int] = [:]
        if thumbor.quality == nil {
            if let q = settings.webpQuality { formatQuality["webp"] = q }
            if let q = settings.avifQuality { formatQuality["avif"] = q }
        }
        var serializer = OutputSerializer(
            format: format, quality: thumbor.quality ?? settings.quality, formatQuality: formatQuality,
            keepsCopyright: configuration.keepsCopyright && !thumbor.stripsExif,
            encoders: Self.thumborEncoders(configuration.variantDefaults.encoders, settings),
            preferred: format == "auto" ? ["jpg", "png", "gif", "webp", "avif"] : nil)
        serializer.maxBytes = thumbor.maxBytes ?? 0
        serializer.fitsAsThumbor = true
        // can_auto_convert_png_to_jpg, to the letter: with AUTO_PNG_TO_JPG only where no autojpg
        // was given (autojpg(true) too turns it off), without it only with autojpg(true).
        serializer.pngToJPEG =
            format == "auto" && (settings.autoPNGToJPG ? thumbor.autoJPG == nil : thumbor.autoJPG == true)
        let decode = limits.quality == .fast ? "|fast" : limits.quality == .full ? "|full" : ""
        let tag =
            "\(thumbor.name)\(decode)\(settings.respectsOrientation ? "|ro" : "")\(resize.keepsColorProfile ? "|kcp" : "")|\(serializer.name)"
        var o = manager.defaultOptions
        o.request.priority = .high
        o.processor = Variant.Tagged(inner: resize, tag: tag, limits: limits)
        o.onlyLoadFirstFrame = true
        o.cache.serializer = serializer
        o.cache.storesOriginal = true
        o.cache.memory.expiration = .expired
        var meta: ThumborMeta?
        if path.meta {
            // META_CALLBACK_NAME, else the URL's `callback` (a name a page can call, or refused).
            let callback = settings.metaCallback ?? Self.queryArgument("callback", of: request.target)
            if let callback, !ThumborMeta.isCallback(callback) { throw .badOption }
            meta = ThumborMeta(geometry: thumbor.geometry, url: path.image, callback: callback)
            (meta!.noUpscale, meta!.respectsOrientation) = (thumbor.noUpscale, settings.respectsOrientation)
        }
        var plan = Plan(
            source: source, options: o, maxAge: thumbor.maxAge ?? settings.maxAge, vary: meta == nil ? vary : nil,
            expires: nil, key: source.absoluteString + "\u{0}" + o.processorIdentifier,
            passThrough: meta.map { .thumborMeta($0) })
        plan.sourceLimits = limits
        plan.thumbor = true
        return plan
    }

    /// The source as thumbor's loader takes the image: the file loader's path under
    /// `FILE_LOADER_ROOT_PATH` (Magpie's `local://`), or the HTTP loader's URL (`_normalize_url`:
    /// unquoted, quoted again with its safe characters if it was not quoted, `http://` put before
    /// one that does not start with `http`), whose host must be one `ALLOWED_SOURCES` lists.
    static func thumborSource(_ image: String, _ settings: ThumborSettings) throws(ServiceError) -> String {
        guard let unquoted = ThumborQuoting.unquote(image) else { throw .sourceDenied }
        if settings.loadsFiles {
            // file_loader.py: the root joined with the path, refused outside the root (here the
            // local loader's own confinement does it).
            let relative = unquoted.drop { $0 == "/" }
            return "local:///" + ThumborQuoting.quote(String(relative), safe: "/")
        }
        let quoted =
            ThumborQuoting.unquote(unquoted) == unquoted
            ? ThumborQuoting.quote(unquoted, safe: "~@#$&()*!+=:;,.?/'") : unquoted
        let url = quoted.hasPrefix("http") ? quoted : "http://" + quoted
        guard let host = URL(string: url)?.host?.lowercased(), !host.isEmpty else { throw .sourceDenied }
        guard settings.allowedSources.isEmpty || settings.allowedSources.contains(where: { Self.allows($0, host) })
        else { throw .sourceDenied }
        return url
    }

    /// thumbor's `validate`: a pattern with a regular expression's characters (its legacy form)
    /// matches the whole host name; any other string is the host name exactly.
    static func allows(_ pattern: String, _ host: String) -> Bool {
        let special = "\\^$*+?{}[]()|"
        guard pattern.contains(where: special.contains) else { return pattern == host }
        // As thumbor writes it, `^` and `$` around the pattern without a group.
        guard let regex = try? Regex("^" + pattern + "$") else { return false }
        return (try? regex.prefixMatch(in: host)) != nil
    }

    /// The first value of `name` in the target's query, percent-decoded (`+` a space), as
    /// tornado's `arguments` holds it; nil where it is not there or blank (tornado drops those).
    static func queryArgument(_ name: String, of target: String) -> String? {
        guard let q = target.firstIndex(of: "?") else { return nil }
        for pair in target[target.index(after: q)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.first.map(String.init) == name else { continue }
            let value = parts.count > 1 ? String(parts[1]).replacingOccurrences(of: "+", with: " ") : ""
            let decoded = value.removingPercentEncoding ?? value
            if !decoded.isEmpty { return decoded }
        }
        return nil
    }
}
