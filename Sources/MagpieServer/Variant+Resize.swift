import Magpie

extension Variant {
    /// imgproxy's resizing types, decided from the source's size (read from its header before
    /// decoding, so the library still shrinks on load):
    /// - `fit`: inside W×H, aspect kept; a side of 0 follows the other;
    /// - `force`: exactly W×H;
    /// - `fill`: cover W×H, then crop at the gravity; without `enlarge` a smaller source is not
    ///   enlarged, and the crop is W×H or the whole side where the source is shorter;
    /// - `fill-down`: as `fill`, but when the source is too small the crop keeps W:H's aspect;
    /// - `auto`: `fill` when the source and W×H are both landscape or both portrait, else `fit`.
    struct Resize: FrameDecodingProcessor {
        let type: ProcessingOptions.ResizingType
        let width: Int
        let height: Int
        let enlarge: Bool
        let anchor: CropAnchor
        /// Shrink-on-load to twice the target (`.standard`, as libvips) or just past it (`.fast`).
        let quality: DecodingOptions.Quality
        /// A rotation or flip after the resize (the box is of the image before it), composed into
        /// the decode where the resize is one.
        var transform: Orientation = .up
        /// Keep the source's colour profile (`scp:0`) rather than convert to sRGB.
        var keepsColorProfile = false
        /// `c`: the source's region kept before the resize (sides as ``GeometryOptions/Crop``) and
        /// where it is taken.
        var crop: (width: Double, height: Double, anchor: CropAnchor)?
        var minWidth = 0
        var minHeight = 0
        var zoomX = 1.0
        var zoomY = 1.0
        /// `ar:0`: the source's pixels as stored, its EXIF orientation not applied.
        var appliesOrientation = true
        /// `eth:1`: a JPEG's EXIF thumbnail is decoded when it is large enough for the output.
        var enforcesThumbnail = false

        /// Never used alone: the tagged processor around it names the variant.
        var identifier: String { "magpie.serve.resize" }

        func process(_ input: ImageProcessingInput, firstFrameOnly: Bool) throws -> Image {
            let (sw, sh): (Int, Int)
            switch input {
            case .data(let data): (sw, sh) = try sourceSize(of: data)
            case .image(let image): (sw, sh) = (image.width, image.height)
            }
            return try plan(sourceWidth: sw, sourceHeight: sh).process(input, firstFrameOnly: true)
        }

        /// An animation's frames: the plan for its size, made once.
        func frameDecoding(of source: EncodedSource) throws -> (options: DecodingOptions, then: (any ImageProcessor)?) {
            var probe = DecodingOptions(appliesOrientation: appliesOrientation)
            probe.usesEmbeddedThumbnail = enforcesThumbnail
            let (sw, sh) = try source.outputSize(options: probe)
            return try plan(sourceWidth: sw, sourceHeight: sh).framePlan(for: source)
        }

        /// The sizes as `process` reads them from the header.
        func sourceSize(of data: [UInt8]) throws -> (Int, Int) {
            var probe = DecodingOptions(appliesOrientation: appliesOrientation)
            probe.usesEmbeddedThumbnail = enforcesThumbnail
            return try Image.outputSize(of: data, options: probe)
        }

        /// The library processors for a source of `sw`×`sh`, then the transform.
        func plan(sourceWidth sw: Int, sourceHeight sh: Int) -> any ImageProcessor {
            let resize = Self.decoding(
                planResize(sourceWidth: sw, sourceHeight: sh), asStored: !appliesOrientation,
                thumbnail: enforcesThumbnail)
            if transform == .up { return resize }
            if let one = resize as? DownsamplingProcessor {
                var turned = one
                turned.transform = transform
                return turned
            }
            return CompositeProcessor(resize, TransformProcessor(transform))
        }

        private func planResize(sourceWidth sw: Int, sourceHeight sh: Int) -> any ImageProcessor {
            if crop != nil || minWidth > 0 || minHeight > 0 || zoomX != 1 || zoomY != 1 {
                return planGeneral(sourceWidth: sw, sourceHeight: sh)
            }
            let tw = width > 0 ? width : 1 << 30
            let th = height > 0 ? height : 1 << 30
            var type = self.type
            if type == .auto { type = width > 0 && height > 0 && (sw >= sh) == (width >= height) ? .fill : .fit }
            if width == 0 || height == 0 || type == .fit {
                return DownsamplingProcessor(
                    width: tw, height: th, mode: .fit, allowsUpscaling: enlarge, quality: quality,
                    keepsColorProfile: keepsColorProfile)
            }
            if type == .force {
                return DownsamplingProcessor(
                    width: width, height: height, mode: .exact, allowsUpscaling: enlarge, quality: quality,
                    keepsColorProfile: keepsColorProfile)
            }
            let cover = max(Double(width) / Double(sw), Double(height) / Double(sh))
            let scale = enlarge ? cover : min(1, cover)
            let cw = max(1, Int((Double(sw) * scale).rounded()))
            let ch = max(1, Int((Double(sh) * scale).rounded()))
            var (bw, bh) = (min(width, cw), min(height, ch))
            if type == .fillDown && (cw < width || ch < height) {
                let aspect = Double(width) / Double(height)
                if Double(cw) / Double(ch) > aspect {
                    (bw, bh) = (max(1, Int((Double(ch) * aspect).rounded())), ch)
                } else {
                    (bw, bh) = (cw, max(1, Int((Double(cw) / aspect).rounded())))
                }
            }
            return CompositeProcessor(
                DownsamplingProcessor(
                    width: cw, height: ch, mode: .exact, allowsUpscaling: scale > 1, quality: quality,
                    keepsColorProfile: keepsColorProfile),
                CroppingProcessor(width: min(bw, cw), height: min(bh, ch), anchor: anchor))
        }

        /// `plan` with its decoding downsample leaving the EXIF orientation alone (`asStored`) and
        /// decoding the embedded thumbnail (`thumbnail`).
        static func decoding(_ plan: any ImageProcessor, asStored: Bool, thumbnail: Bool) -> any ImageProcessor {
            guard asStored || thumbnail else { return plan }
            if var one = plan as? DownsamplingProcessor {
                one.appliesOrientation = !asStored
                one.usesEmbeddedThumbnail = thumbnail
                return one
            }
            if let pair = plan as? CompositeProcessor {
                return CompositeProcessor(decoding(pair.first, asStored: asStored, thumbnail: thumbnail), pair.second)
            }
            return plan
        }
    }
}
