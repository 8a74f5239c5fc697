/// The effects: builders that append processors to the chain, in the order written. A value out
/// of range is an ``ImageOptionsError/invalid(_:at:)`` at ``ImageOptionsMaker/build()``, before
/// anything is fetched.
extension ImageOptionsMaker {
    /// `make.effects.blur(sigma: 4).then.grayscale()`: each step appends one processor.
    public struct EffectsMaker {
        let maker: ImageOptionsMaker

        private func add(
            _ processor: any ImageProcessor, _ valid: Bool, _ what: String, _ fileID: String, _ line: Int
        ) -> EffectsMaker {
            if valid {
                maker.recordedEffects.append(processor)
            } else {
                maker.invalid("effects.\(what)", SourceLine(fileID: fileID, line: line))
            }
            return self
        }

        /// Gaussian blur, sigma 0–100 (`BlurProcessor`).
        @discardableResult
        public func blur(sigma: Double, fileID: String = #fileID, line: Int = #line) -> EffectsMaker {
            add(BlurProcessor(sigma: sigma), (0...100).contains(sigma), "blur needs a sigma of 0–100", fileID, line)
        }

        /// Unsharp mask (`SharpenProcessor`); `Sharpening/afterResize` is libvips's mild default.
        @discardableResult
        public func sharpen(_ s: Sharpening = Sharpening(), fileID: String = #fileID, line: Int = #line) -> EffectsMaker
        {
            let ok =
                (0...100).contains(s.sigma) && (0...100).contains(s.amount) && (0...255).contains(s.threshold)
                && (0...255).contains(s.maxBrighten) && (0...255).contains(s.maxDarken)
            return add(SharpenProcessor(s), ok, "sharpen has a value out of range", fileID, line)
        }

        /// A clockwise rotation by a multiple of 90 degrees (negative: counter-clockwise).
        @discardableResult
        public func rotate(degrees: Int, fileID: String = #fileID, line: Int = #line) -> EffectsMaker {
            let turn = Orientation(rotatingClockwise: degrees)
            return add(
                TransformProcessor(turn ?? .up), turn != nil, "rotate takes multiples of 90 degrees", fileID, line)
        }

        /// Mirrors left and right, top and bottom, or both.
        @discardableResult
        public func flip(horizontal: Bool = false, vertical: Bool = false, fileID: String = #fileID, line: Int = #line)
            -> EffectsMaker
        {
            add(
                TransformProcessor(.flip(horizontal: horizontal, vertical: vertical)), horizontal || vertical,
                "flip needs a direction", fileID, line)
        }

        /// Anti-aliased round corners, optionally with a border (`RoundCornerProcessor`).
        @discardableResult
        public func roundCorners(
            radius: Double, corners: RectCorners = .all, borderWidth: Double = 0, borderColor: Color = .black,
            fileID: String = #fileID, line: Int = #line
        ) -> EffectsMaker {
            add(
                RoundCornerProcessor(
                    radius: .pixels(radius), corners: corners, borderWidth: borderWidth, borderColor: borderColor),
                radius >= 0 && radius.isFinite && borderWidth >= 0 && borderWidth.isFinite,
                "roundCorners needs a finite radius and border of 0 or more", fileID, line)
        }

        /// The centred square as a circle (Nuke's `Circle`).
        @discardableResult
        public func circle(
            borderWidth: Double = 0, borderColor: Color = .black, fileID: String = #fileID, line: Int = #line
        )
            -> EffectsMaker
        {
            add(
                RoundCornerProcessor.circle(borderWidth: borderWidth, borderColor: borderColor),
                borderWidth >= 0 && borderWidth.isFinite, "circle needs a finite border of 0 or more", fileID, line)
        }

        /// Saturation, contrast and brightness (`ColorAdjustment`).
        @discardableResult
        public func color(
            saturation: Double = 1, contrast: Double = 1, brightness: Double = 0, fileID: String = #fileID,
            line: Int = #line
        ) -> EffectsMaker {
            add(
                ColorProcessor(ColorAdjustment(saturation: saturation, contrast: contrast, brightness: brightness)),
                (0...10).contains(saturation) && (0...10).contains(contrast) && (-255...255).contains(brightness),
                "color needs saturation and contrast of 0–10, brightness of -255–255", fileID, line)
        }

        /// Mixes `color` in by `amount` (0–1).
        @discardableResult
        public func tint(_ color: Color, amount: Double, fileID: String = #fileID, line: Int = #line) -> EffectsMaker {
            add(
                ColorProcessor.tint(color, amount: amount), (0...1).contains(amount), "tint needs an amount of 0–1",
                fileID, line)
        }

        /// Rec. 709 grayscale.
        @discardableResult
        public func grayscale(fileID: String = #fileID, line: Int = #line) -> EffectsMaker {
            add(ColorProcessor.grayscale, true, "", fileID, line)
        }

        /// Margins of `color` (clear by default).
        @discardableResult
        public func padding(
            top: Int, right: Int, bottom: Int, left: Int, color: Color = .clear, fileID: String = #fileID,
            line: Int = #line
        ) -> EffectsMaker {
            let limit = 1 << 16
            return add(
                PaddingProcessor(top: top, right: right, bottom: bottom, left: left, color: color),
                [top, right, bottom, left].allSatisfy { (0...limit).contains($0) },
                "padding needs margins of 0–\(limit)", fileID, line)
        }

        /// Alpha flattened onto `color`.
        @discardableResult
        public func background(_ color: Color, fileID: String = #fileID, line: Int = #line) -> EffectsMaker {
            add(BackgroundProcessor(color), true, "", fileID, line)
        }

        /// Another image over this one (`OverlayProcessor`: make it once and reuse it, the
        /// watermark is decoded when it is made).
        @discardableResult
        public func overlay(_ overlay: OverlayProcessor, fileID: String = #fileID, line: Int = #line) -> EffectsMaker {
            add(
                overlay, (0...1).contains(overlay.opacity) && overlay.scale.map { $0 > 0 && $0 <= 1 } ?? true,
                "overlay needs an opacity of 0–1 and a scale in (0, 1]", fileID, line)
        }

        public var then: EffectsMaker { self }
        public var and: EffectsMaker { self }
    }
}
