/// imgproxy's arithmetic for a result's geometry (its `processing/prepare.go`: `calcScale`,
/// `calcSizes`, `limitScale`, and `calcCropSize`), from the source's size in the result's frame
/// (after the EXIF orientation and `rot`). Kept to imgproxy's operations and rounding so that
/// every size matches its to the pixel; the processors take their sizes from here.
struct ImgproxyGeometry: Sendable, Equatable {
    /// What a request asks, as imgproxy's options hold it.
    struct Request: Sendable, Hashable {
        var type = ProcessingOptions.ResizingType.fit
        var width = 0
        var height = 0
        var enlarge = false
        var dpr = 1.0
        var zoomX = 1.0
        var zoomY = 1.0
        var minWidth = 0
        var minHeight = 0
        /// `c`: at least 1 pixels, below 1 a fraction of the side, 0 the whole side.
        var cropWidth = 0.0
        var cropHeight = 0.0
        var extend = false
        var extendAspectRatio = false
        /// Top, right, bottom, left (unscaled), or all 0.
        var padding = [0, 0, 0, 0]
        /// The largest side of the result, padding and extension included (0: none).
        var maxResultDimension = 0
        /// A vector source (SVG) is drawn at any size: `enlarge` does not hold it back.
        var isVector = false
    }

    /// The scale of the source's pixels on each axis, and the DPR as it applies.
    var wscale = 1.0
    var hscale = 1.0
    var dprScale = 1.0
    /// The crop of the source before the scale (0: the whole side).
    var cropWidth = 0
    var cropHeight = 0
    /// The cropped source at the scale.
    var scaledWidth = 0
    var scaledHeight = 0
    /// The box asked for, at the DPR and zoom.
    var targetWidth = 0
    var targetHeight = 0
    /// The window the result is cut to (0: no cut on that side).
    var resultCropWidth = 0
    var resultCropHeight = 0
    /// `exar`'s canvas (0: none).
    var extendAspectRatioWidth = 0
    var extendAspectRatioHeight = 0

    init(sourceWidth: Int, sourceHeight: Int, request r: Request) {
        cropWidth = Self.cropSize(sourceWidth, r.cropWidth)
        cropHeight = Self.cropSize(sourceHeight, r.cropHeight)
        let widthToScale = Self.minNonZero(cropWidth, sourceWidth)
        let heightToScale = Self.minNonZero(cropHeight, sourceHeight)
        calcScale(widthToScale, heightToScale, r)
        calcSizes(widthToScale, heightToScale, r)
        limitScale(widthToScale, heightToScale, r)
    }

    /// Padding on each side (top, right, bottom, left) at the DPR, as imgproxy rounds it.
    func padding(_ r: Request) -> [Int] { r.padding.map { Self.scaleToEven($0, dprScale) } }

    private mutating func calcScale(_ width: Int, _ height: Int, _ r: Request) {
        let (srcW, srcH) = (Double(width), Double(height))
        let dstW = r.width == 0 ? srcW : Double(r.width)
        let dstH = r.height == 0 ? srcH : Double(r.height)
        var wshrink = dstW == srcW ? 1 : srcW / dstW
        var hshrink = dstH == srcH ? 1 : srcH / dstH
        if wshrink != 1 || hshrink != 1 {
            var type = r.type
            if type == .auto {
                let (srcD, dstD) = (srcW - srcH, dstW - dstH)
                type = (srcD >= 0 && dstD >= 0) || (srcD < 0 && dstD < 0) ? .fill : .fit
            }
            if r.width == 0 && type != .force {
                wshrink = hshrink
            } else if r.height == 0 && type != .force {
                hshrink = wshrink
            } else if type == .fit {
                wshrink = max(wshrink, hshrink)
                hshrink = wshrink
            } else if type == .fill || type == .fillDown {
                wshrink = min(wshrink, hshrink)
                hshrink = wshrink
            }
        }
        wshrink /= r.zoomX
        hshrink /= r.zoomY
        dprScale = r.dpr
        if !r.enlarge && !r.isVector {
            let minShrink = min(wshrink, hshrink)
            if minShrink < 1 {
                wshrink /= minShrink
                hshrink /= minShrink
                // The box is out of reach without enlarging: a DPR below 1 would move further
                // from it, so it is compensated (unless extended, whose composition is kept).
                if !r.extend { dprScale /= minShrink }
            }
            // The largest DPR that does not enlarge.
            dprScale = min(dprScale, min(wshrink, hshrink))
        }
        if r.minWidth > 0, case let minShrink = srcW / Double(r.minWidth), minShrink < wshrink {
            hshrink /= wshrink / minShrink
            wshrink = minShrink
        }
        if r.minHeight > 0, case let minShrink = srcH / Double(r.minHeight), minShrink < hshrink {
            wshrink /= hshrink / minShrink
            hshrink = minShrink
        }
        wshrink /= dprScale
        hshrink /= dprScale
        wshrink = min(wshrink, srcW)
        hshrink = min(hshrink, srcH)
        wscale = 1 / wshrink
        hscale = 1 / hshrink
    }

    private mutating func calcSizes(_ widthToScale: Int, _ heightToScale: Int, _ r: Request) {
        targetWidth = Self.scale(r.width, dprScale * r.zoomX)
        targetHeight = Self.scale(r.height, dprScale * r.zoomY)
        scaledWidth = Self.scale(widthToScale, wscale)
        scaledHeight = Self.scale(heightToScale, hscale)
        (resultCropWidth, resultCropHeight) = (targetWidth, targetHeight)
        if r.type == .fillDown && !r.enlarge {
            let diffW = Double(targetWidth) / Double(scaledWidth)
            let diffH = Double(targetHeight) / Double(scaledHeight)
            if diffW > diffH && diffW > 1 {
                resultCropHeight = Self.scale(scaledWidth, Double(targetHeight) / Double(targetWidth))
                resultCropWidth = scaledWidth
            } else if diffH > diffW && diffH > 1 {
                resultCropWidth = Self.scale(scaledHeight, Double(targetWidth) / Double(targetHeight))
                resultCropHeight = scaledHeight
            }
        }
        (extendAspectRatioWidth, extendAspectRatioHeight) = (0, 0)
        if r.extendAspectRatio && targetWidth > 0 && targetHeight > 0 {
            let outWidth = Self.minNonZero(scaledWidth, resultCropWidth)
            let outHeight = Self.minNonZero(scaledHeight, resultCropHeight)
            let diffW = Double(targetWidth) / Double(outWidth)
            let diffH = Double(targetHeight) / Double(outHeight)
            if diffH > diffW {
                extendAspectRatioHeight = Self.scale(outWidth, Double(targetHeight) / Double(targetWidth))
                extendAspectRatioWidth = outWidth
            } else if diffW > diffH {
                extendAspectRatioWidth = Self.scale(outHeight, Double(targetWidth) / Double(targetHeight))
                extendAspectRatioHeight = outHeight
            }
        }
    }

    private mutating func limitScale(_ widthToScale: Int, _ heightToScale: Int, _ r: Request) {
        let limit = r.maxResultDimension
        guard limit > 0 else { return }
        var outWidth = Self.minNonZero(scaledWidth, resultCropWidth)
        var outHeight = Self.minNonZero(scaledHeight, resultCropHeight)
        if r.extend {
            outWidth = max(outWidth, targetWidth)
            outHeight = max(outHeight, targetHeight)
        } else if r.extendAspectRatio {
            outWidth = max(outWidth, extendAspectRatioWidth)
            outHeight = max(outHeight, extendAspectRatioHeight)
        }
        let pad = padding(r)
        outWidth += pad[1] + pad[3]
        outHeight += pad[0] + pad[2]
        guard outWidth > limit || outHeight > limit else { return }
        let downScale = Double(limit) / Double(max(outWidth, outHeight))
        wscale = max(wscale * downScale, 1 / Double(widthToScale))
        hscale = max(hscale * downScale, 1 / Double(heightToScale))
        dprScale *= downScale
        calcSizes(widthToScale, heightToScale, r)
    }

    // imgproxy's `imath`: Go's math.Round (half away from zero) and math.RoundToEven.
    static func minNonZero(_ a: Int, _ b: Int) -> Int { a == 0 ? b : b == 0 ? a : min(a, b) }
    static func scale(_ a: Int, _ s: Double) -> Int { a == 0 ? 0 : Int((Double(a) * s).rounded()) }
    static func scaleToEven(_ a: Int, _ s: Double) -> Int {
        a == 0 ? 0 : Int((Double(a) * s).rounded(.toNearestOrEven))
    }
    static func cropSize(_ side: Int, _ crop: Double) -> Int {
        crop == 0 ? 0 : crop >= 1 ? Int(crop) : max(1, scale(side, crop))
    }
}
