/// The one mapping between the Image layer's public types and the Core layer's vocabulary
/// (`CoreTypes.swift`): requests go down as Core values, results come up as Image values. Core
/// names no type of this layer.
extension DecodingOptions {
    var coreRequest: CoreDecodeRequest {
        var r = CoreDecodeRequest()
        switch resize {
        case nil: r.fit = .none
        case .fit(let w, let h): r.fit = .inside(width: w, height: h)
        case .fill(let w, let h): r.fit = .fill(width: w, height: h)
        case .exact(let w, let h): r.fit = .exact(width: w, height: h)
        case .maxPixels(let n): r.fit = .maxPixels(n)
        }
        r.filter = filter.core
        r.appliesOrientation = appliesOrientation
        r.allowsUpscaling = allowsUpscaling
        r.fast = quality == .fast
        r.noShrink = quality == .full
        r.linearLight = linearLight
        r.keepsProfile = keepsColorProfile
        r.embeddedThumbnail = usesEmbeddedThumbnail
        r.transform = transform.rawValue
        if case .single(let index) = frames { r.frameIndex = index }
        r.maxPixels = limits.maxPixels
        r.maxBytes = limits.maxBytes
        r.maxFrames = limits.maxFrames
        r.maxFrameWork = limits.maxFrameWork
        return r
    }
}

extension DecodingOptions.Filter {
    var core: CoreFilter {
        switch self {
        case .lanczos3: return .lanczos3
        case .mitchell: return .mitchell
        case .bilinear: return .bilinear
        }
    }
}

extension ImageFormat {
    /// Whether the core, as built, decodes (or encodes) this format.
    var coreDecodes: Bool { CoreBridge.decodes(formatNamed: rawValue) }
    var coreEncodes: Bool { CoreBridge.encodes(formatNamed: rawValue) }
    var coreMediaType: String? { CoreBridge.mediaType(formatNamed: rawValue) }
}

extension Image {
    init(_ d: CoreDecoded) {
        self.init(
            width: d.width, height: d.height,
            frames: d.frames.map { ImageFrame(pixels: $0.pixels, delay: .milliseconds($0.delayMilliseconds)) },
            loopCount: d.loopCount, sourceFormat: ImageFormat(rawValue: d.formatName),
            sourceOrientation: d.orientation)
        colorProfile = d.profile
        colorProfileHandling =
            switch d.profileOutcome {
            case .none: .none
            case .converted: .convertedToSRGB
            case .kept: .kept
            case .ignored: .ignored
            }
    }
}

extension ImageInfo {
    init(_ c: CoreInfo) {
        self.init(
            format: ImageFormat(rawValue: c.formatName), width: c.width, height: c.height, frameCount: c.frames,
            orientation: c.orientation, bitDepth: c.bitDepth, hasAlpha: c.hasAlpha, isProgressive: c.isProgressive,
            isInterlaced: c.isInterlaced, loopCount: c.loopCount)
    }
}
