/// The size constraints: their builders, and the processor they compile to.
extension ImageOptionsMaker {
    /// `size`, `width` or `height`: pick a relation.
    public struct SizeMaker {
        let maker: ImageOptionsMaker
        let axis: Axis

        @discardableResult
        public func equalTo(width: Int, height: Int, fileID: String = #fileID, line: Int = #line) -> SizeModifiers {
            add(.equal, width, height, fileID, line)
        }
        @discardableResult
        public func lessThanOrEqualTo(width: Int, height: Int, fileID: String = #fileID, line: Int = #line)
            -> SizeModifiers
        {
            add(.atMost, width, height, fileID, line)
        }
        @discardableResult
        public func greaterThanOrEqualTo(width: Int, height: Int, fileID: String = #fileID, line: Int = #line)
            -> SizeModifiers
        {
            add(.atLeast, width, height, fileID, line)
        }
        /// Exactly `width × height`: the image covers the box (aspect kept, enlarged if need be),
        /// then what overflows is cut away at `anchor`; `CropAnchor/smart` keeps the most
        /// interesting window. The same as `equalTo(width:height:).crop(anchor)`.
        @discardableResult
        public func fill(
            width: Int, height: Int, anchor: CropAnchor = .center, fileID: String = #fileID, line: Int = #line
        ) -> SizeModifiers {
            if axis != .size {
                maker.invalid("\(axis.rawValue).fill: use size.fill", SourceLine(fileID: fileID, line: line))
            }
            return add(.equal, width, height, fileID, line).crop(anchor, fileID: fileID, line: line)
        }
        /// One number: both sides for `size`, the one side for `width` / `height`.
        @discardableResult
        public func equalTo(_ value: Int, fileID: String = #fileID, line: Int = #line) -> SizeModifiers {
            add(.equal, value, value, fileID, line)
        }
        @discardableResult
        public func lessThanOrEqualTo(_ value: Int, fileID: String = #fileID, line: Int = #line) -> SizeModifiers {
            add(.atMost, value, value, fileID, line)
        }
        @discardableResult
        public func greaterThanOrEqualTo(_ value: Int, fileID: String = #fileID, line: Int = #line) -> SizeModifiers {
            add(.atLeast, value, value, fileID, line)
        }

        private func add(_ r: Relation, _ w: Int, _ h: Int, _ fileID: String, _ line: Int) -> SizeModifiers {
            let at = SourceLine(fileID: fileID, line: line)
            if w <= 0 || h <= 0 { maker.invalid("\(axis.rawValue).\(r.rawValue) needs positive sizes", at) }
            let c = SizeConstraint(
                axis: axis, relation: r, width: axis == .height ? nil : max(1, w),
                height: axis == .width ? nil : max(1, h), line: at)
            maker.sizes.append(c)
            return SizeModifiers(maker: maker, index: maker.sizes.count - 1)
        }
    }

    /// Modifiers of the size constraint just written.
    public struct SizeModifiers {
        let maker: ImageOptionsMaker
        let index: Int

        /// Cut to exactly the size, keeping the window at `anchor` (for `greaterThanOrEqualTo`
        /// and `equalTo`, which otherwise scale without cropping or stretch). Once per size.
        @discardableResult
        public func crop(_ anchor: CropAnchor = .center, fileID: String = #fileID, line: Int = #line)
            -> SizeModifiers
        {
            maker.modify(index, "crop", SourceLine(fileID: fileID, line: line)) { $0.crop = anchor }
            return self
        }
        /// Let the constraint enlarge images smaller than it. Once per size.
        @discardableResult
        public func allowingUpscale(fileID: String = #fileID, line: Int = #line) -> SizeModifiers {
            maker.modify(index, "allowingUpscale", SourceLine(fileID: fileID, line: line)) { $0.upscale = true }
            return self
        }
        /// The resampling filter (Lanczos3 by default). Once per size.
        @discardableResult
        public func filter(_ filter: DecodingOptions.Filter, fileID: String = #fileID, line: Int = #line)
            -> SizeModifiers
        {
            maker.modify(index, "filter", SourceLine(fileID: fileID, line: line)) { $0.filter = filter }
            return self
        }
        /// Throughput over the last dB: shrink-on-load down to the size itself rather than twice
        /// it (`DecodingOptions/Quality/fast`). Once per size.
        @discardableResult
        public func fast(fileID: String = #fileID, line: Int = #line) -> SizeModifiers {
            maker.modify(index, "fast", SourceLine(fileID: fileID, line: line)) { $0.quality = .fast }
            return self
        }
        /// Sharpen after the downscale (`Sharpening/afterResize`, libvips's default, unless
        /// given). Once per size.
        @discardableResult
        public func sharpened(_ s: Sharpening = .afterResize, fileID: String = #fileID, line: Int = #line)
            -> SizeModifiers
        {
            maker.modify(index, "sharpened", SourceLine(fileID: fileID, line: line)) { $0.sharpening = s }
            return self
        }
        /// Keep the source's colour profile: pixels as stored and the profile on the image, for the
        /// encoder to embed (`DecodingOptions/keepsColorProfile`), rather than convert to sRGB.
        /// Once per size.
        @discardableResult
        public func keepingColorProfile(fileID: String = #fileID, line: Int = #line) -> SizeModifiers {
            maker.modify(index, "keepingColorProfile", SourceLine(fileID: fileID, line: line)) {
                $0.keepsProfile = true
            }
            return self
        }
        public var with: SizeModifiers { self }
        public var and: SizeModifiers { self }
    }

    /// The processor the size constraints describe (`nil` when there are none).
    static func sizeProcessor(_ sizes: [SizeConstraint]) throws(ImageOptionsError) -> (any ImageProcessor)? {
        guard let first = sizes.first else { return nil }
        if let whole = sizes.first(where: { $0.axis == .size }), let other = sizes.first(where: { $0.axis != .size }) {
            let (a, b) = whole.line.line <= other.line.line ? (whole, other) : (other, whole)
            throw .contradictory("size and \(other.axis.rawValue) constraints", first: a.line, second: b.line)
        }
        for axis in [Axis.size, .width, .height] {
            let same = sizes.filter { $0.axis == axis }
            if same.count > 1 {
                let what =
                    same[0].relation == same[1].relation
                    ? "\(axis.rawValue).\(same[1].relation.rawValue)"
                    : "\(axis.rawValue).\(same[0].relation.rawValue) and \(axis.rawValue).\(same[1].relation.rawValue)"
                if same[0].relation == same[1].relation {
                    throw .redefined(what, first: same[0].line, second: same[1].line)
                }
                throw .contradictory(what, first: same[0].line, second: same[1].line)
            }
        }
        var c = first
        if sizes.count == 2 {
            // A width and a height constraint: they must agree on the relation.
            let (w, h) = sizes[0].axis == .width ? (sizes[0], sizes[1]) : (sizes[1], sizes[0])
            guard w.relation == h.relation else {
                let (a, b) = w.line.line <= h.line.line ? (w, h) : (h, w)
                throw .contradictory(
                    "width.\(w.relation.rawValue) and height.\(h.relation.rawValue)", first: a.line, second: b.line)
            }
            // A modifier belongs to the one size they make: given on both, it is given twice.
            for (name, at) in w.modifiers.sorted(by: { $0.key < $1.key }) {
                if let other = h.modifiers[name] {
                    let (a, b) = at.line <= other.line ? (at, other) : (other, at)
                    throw .redefined("size.\(name) (on width and height)", first: a, second: b)
                }
            }
            c = SizeConstraint(
                axis: .size, relation: w.relation, width: w.width, height: h.height, crop: w.crop ?? h.crop,
                upscale: w.upscale || h.upscale, filter: w.modifiers["filter"] != nil ? w.filter : h.filter,
                quality: w.modifiers["fast"] != nil ? w.quality : h.quality,
                sharpening: w.modifiers["sharpened"] != nil ? w.sharpening : h.sharpening,
                keepsProfile: w.keepsProfile || h.keepsProfile, line: w.line)
        }
        let unbounded = 1 << 30
        switch c.relation {
        case .atMost:
            if c.crop != nil { throw .invalid(".crop needs greaterThanOrEqualTo or equalTo", at: c.line) }
            return DownsamplingProcessor(
                width: c.width ?? unbounded, height: c.height ?? unbounded, mode: .fit, allowsUpscaling: c.upscale,
                filter: c.filter, quality: c.quality, sharpening: c.sharpening, keepsColorProfile: c.keepsProfile)
        case .atLeast:
            if let anchor = c.crop {
                guard c.width != nil && c.height != nil else {
                    throw .invalid(".crop needs both a width and a height", at: c.line)
                }
                if anchor == .center {
                    return DownsamplingProcessor(
                        width: c.width!, height: c.height!, mode: .fill, allowsUpscaling: c.upscale, filter: c.filter,
                        quality: c.quality, sharpening: c.sharpening, keepsColorProfile: c.keepsProfile)
                }
                return DownsamplingProcessor(
                    width: c.width!, height: c.height!, mode: .cover, allowsUpscaling: c.upscale, filter: c.filter,
                    quality: c.quality, sharpening: c.sharpening, keepsColorProfile: c.keepsProfile)
                    |> CroppingProcessor(width: c.width!, height: c.height!, anchor: anchor)
            }
            return DownsamplingProcessor(
                width: c.width ?? 1, height: c.height ?? 1, mode: .cover, allowsUpscaling: c.upscale, filter: c.filter,
                quality: c.quality, sharpening: c.sharpening, keepsColorProfile: c.keepsProfile)
        case .equal:
            if c.width != nil && c.height != nil {
                if let anchor = c.crop {
                    return DownsamplingProcessor(
                        width: c.width!, height: c.height!, mode: .cover, allowsUpscaling: true, filter: c.filter,
                        quality: c.quality, sharpening: c.sharpening, keepsColorProfile: c.keepsProfile)
                        |> CroppingProcessor(width: c.width!, height: c.height!, anchor: anchor)
                }
                return DownsamplingProcessor(
                    width: c.width!, height: c.height!, mode: .exact, allowsUpscaling: true, filter: c.filter,
                    quality: c.quality, sharpening: c.sharpening, keepsColorProfile: c.keepsProfile)
            }
            if c.crop != nil { throw .invalid(".crop needs both a width and a height", at: c.line) }
            // One side exact, the other following the aspect ratio.
            return DownsamplingProcessor(
                width: c.width ?? unbounded, height: c.height ?? unbounded, mode: .fit, allowsUpscaling: true,
                filter: c.filter, quality: c.quality, sharpening: c.sharpening, keepsColorProfile: c.keepsProfile)
        }
    }
}
