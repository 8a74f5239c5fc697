/// Colour controls: saturation, contrast, brightness and tint in one pass (Kingfisher's
/// `ColorControlsProcessor`, `TintImageProcessor` and `BlackWhiteProcessor`; imgproxy's `sa`,
/// `co` and `bri`). See ``ColorAdjustment``.
public struct ColorProcessor: ImageProcessor {
    public var adjustment: ColorAdjustment

    public init(_ adjustment: ColorAdjustment) { self.adjustment = adjustment }

    /// Mixes `color` in by `amount` (0–1), as a tint.
    public static func tint(_ color: Color, amount: Double) -> ColorProcessor {
        ColorProcessor(ColorAdjustment(tint: color, tintAmount: amount))
    }

    /// Rec. 709 luma grayscale.
    public static let grayscale = ColorProcessor(.grayscale)

    public var identifier: String {
        let a = adjustment
        if a.isIdentity { return "" }
        let tint = a.tintAmount > 0 ? ",tint:\(a.tint.description.prefix(6)),\(a.tintAmount)" : ""
        return "magpie.color(\(a.saturation),\(a.contrast),\(a.brightness)\(tint))"
    }

    public func process(_ input: ImageProcessingInput, firstFrameOnly: Bool) throws -> Image {
        try input.image(firstFrameOnly: firstFrameOnly) { $0 }.adjustingColor(adjustment)
    }
}
