import Magpie

extension Variant {
    /// imgproxy's geometry stage, from the source's size (read from its header before decoding,
    /// so the library still shrinks on load): the sizes come from ``ImgproxyGeometry`` (imgproxy's
    /// `calcScale`, `calcSizes` and `limitScale`), in the result's frame. The source is decoded at
    /// the scale with the rotation and flips composed into the decode, the crop's region (`c`,
    /// source pixels, at its gravity) taken from it, the result cut to the box where it
    /// overflows (fill, fill-down, a minimum) at `g`, then the effects, made for the geometry
    /// (their pixel sizes follow its DPR scale: padding, extend, pixelate, watermark offsets).
    struct Resize: FrameDecodingProcessor {
        var request: ImgproxyGeometry.Request
        /// `g`: where the result is cut, in the result's frame.
        let gravity: GravityOption
        /// `c`'s gravity (nil: `g`'s), in the result's frame; its pixel offsets are the source's.
        var cropGravity: GravityOption?
        /// Shrink-on-load to twice the target (`.standard`, as libvips), just past it (`.fast`), or
        /// none (`.full`).
        let quality: DecodingOptions.Quality
        /// `rot` then `fl`, after the resize; the geometry is of the image after it.
        var transform: Orientation = .up
        /// Keep the source's colour profile (`scp:0`) rather than convert to sRGB.
        var keepsColorProfile = false
        /// `ar:0`: the source's pixels as stored, its EXIF orientation not applied.
        var appliesOrientation = true
        /// `eth:1`: a JPEG's EXIF thumbnail is decoded when it is large enough for the output.
        var enforcesThumbnail = false
        /// Resize in linear light (``DecodingOptions/linearLight``).
        var linearLight = false
        /// The effects after the resize, for the geometry they follow.
        var after: @Sendable (ImgproxyGeometry) -> [any ImageProcessor] = { _ in [] }

        /// Never used alone: the tagged processor around it names the variant.
        var identifier: String { "magpie.serve.resize" }

        init(
            request: ImgproxyGeometry.Request, gravity: GravityOption, quality: DecodingOptions.Quality,
            transform: Orientation = .up, keepsColorProfile: Bool = false
        ) {
            (self.request, self.gravity, self.quality) = (request, gravity, quality)
            (self.transform, self.keepsColorProfile) = (transform, keepsColorProfile)
        }

        func process(_ input: ImageProcessingInput, firstFrameOnly: Bool) throws -> Image {
            let (sw, sh): (Int, Int)
            var vector = false
            switch input {
            case .data(let data):
                (sw, sh) = try sourceSize(of: data)
                vector = Self.isVector(data)
            case .image(let image): (sw, sh) = (image.width, image.height)
            }
            return try plan(sourceWidth: sw, sourceHeight: sh, vector: vector).process(input, firstFrameOnly: true)
        }

        /// Whether `data` is an SVG, drawn at any size (imgproxy's `IsVector`: `el` does not hold it
        /// back). Only a document that starts with `<` (after white space or a byte-order mark) is
        /// probed, so no other format pays for the question.
        static func isVector(_ data: [UInt8]) -> Bool {
            guard
                let first = data.prefix(64).first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }),
                first == UInt8(ascii: "<")
            else { return false }
            return (try? ImageInfo(probing: data))?.format == .svg
        }

        /// An animation's frames: the plan for its size, made once.
        func frameDecoding(of source: EncodedSource) throws -> (options: DecodingOptions, then: (any ImageProcessor)?) {
            let (sw, sh) = try source.outputSize(options: probe)
            return try plan(sourceWidth: sw, sourceHeight: sh).framePlan(for: source)
        }

        /// The sizes as `process` reads them from the header.
        func sourceSize(of data: [UInt8]) throws -> (Int, Int) { try Image.outputSize(of: data, options: probe) }

        private var probe: DecodingOptions {
            var probe = DecodingOptions(appliesOrientation: appliesOrientation)
            probe.usesEmbeddedThumbnail = enforcesThumbnail
            return probe
        }

        /// The geometry for a source of `sw`×`sh` (EXIF orientation applied, before `rot`).
        func geometry(sourceWidth sw: Int, sourceHeight sh: Int, vector: Bool = false) -> ImgproxyGeometry {
            let (w, h) = transform.swapsAxes ? (sh, sw) : (sw, sh)
            var request = self.request
            request.isVector = vector
            return ImgproxyGeometry(sourceWidth: max(1, w), sourceHeight: max(1, h), request: request)
        }

        /// The library processors for a source of `sw`×`sh`, then the effects.
        func plan(sourceWidth sw: Int, sourceHeight sh: Int, vector: Bool = false) -> any ImageProcessor {
            let g = geometry(sourceWidth: sw, sourceHeight: sh, vector: vector)
            let (w, h) = transform.swapsAxes ? (sh, sw) : (sw, sh)
            // The whole source at the scale, in the result's frame.
            let fw = max(1, ImgproxyGeometry.scale(w, g.wscale))
            let fh = max(1, ImgproxyGeometry.scale(h, g.hscale))
            let unscaled = fw == w && fh == h
            var decode = DownsamplingProcessor(
                width: unscaled ? 1 << 30 : transform.swapsAxes ? fh : fw,
                height: unscaled ? 1 << 30 : transform.swapsAxes ? fw : fh, mode: unscaled ? .fit : .exact,
                allowsUpscaling: !unscaled && (g.wscale > 1 || g.hscale > 1), quality: quality,
                transform: transform, keepsColorProfile: keepsColorProfile)
            decode.appliesOrientation = appliesOrientation
            decode.usesEmbeddedThumbnail = enforcesThumbnail
            decode.linearLight = linearLight
            var chain: [any ImageProcessor] = [decode]
            // The crop's region, scaled with the source (its pixel offsets too).
            let (rw, rh) = (min(fw, g.scaledWidth), min(fh, g.scaledHeight))
            if g.cropWidth > 0 || g.cropHeight > 0, rw < fw || rh < fh {
                let a = (cropGravity ?? gravity).anchor(dpr: 1)
                let scaled = a.shifted(
                    x: abs(a.shiftX) >= 1 ? a.shiftX * g.wscale : a.shiftX,
                    y: abs(a.shiftY) >= 1 ? a.shiftY * g.hscale : a.shiftY)
                chain.append(CroppingProcessor(width: rw, height: rh, anchor: scaled))
            }
            // The result's window, at `g` with pixel offsets at the DPR.
            let (cw, ch) = (
                ImgproxyGeometry.minNonZero(g.resultCropWidth, rw), ImgproxyGeometry.minNonZero(g.resultCropHeight, rh)
            )
            if cw < rw || ch < rh {
                chain.append(
                    CroppingProcessor(width: min(cw, rw), height: min(ch, rh), anchor: gravity.anchor(dpr: g.dprScale)))
            }
            chain += after(g)
            return chain.dropFirst().reduce(chain[0]) { CompositeProcessor($0, $1) }
        }
    }
}
