import Magpie

/// What imgproxy's effect options ask for (their rows are in `EffectOptions+Rows.swift`), and
/// the part of the variant's name they make.
struct EffectOptions: Sendable, Hashable {
    var blur: Double?
    var sharpen: Double?
    /// `pix`: the block size (1: off).
    var pixelate = 1
    var rotate = 0
    var flipHorizontal = false
    var flipVertical = false
    var brightness = 0
    var contrast = 1.0
    var saturation = 1.0
    /// Top, right, bottom, left, before `dpr`.
    var padding: [Int]?
    var background: Color?
    var watermark: Watermark?

    struct Watermark: Sendable, Hashable {
        var opacity: Double
        var gravity = ProcessingOptions.Gravity.ce
        var x = 0
        var y = 0
        /// 0: the watermark's own size.
        var scale = 0.0
    }

    /// What changes the output, in a fixed order (part of the variant's name).
    var name: String {
        var parts: [String] = []
        if let blur, blur > 0 { parts.append("bl\(blur)") }
        if let sharpen, sharpen > 0 { parts.append("sh\(sharpen)") }
        if pixelate > 1 { parts.append("pix\(pixelate)") }
        if rotate != 0 { parts.append("rot\(rotate)") }
        if flipHorizontal || flipVertical { parts.append("fl\(flipHorizontal ? "h" : "")\(flipVertical ? "v" : "")") }
        if brightness != 0 || contrast != 1 || saturation != 1 {
            parts.append("col\(saturation):\(contrast):\(brightness)")
        }
        if let padding, padding.contains(where: { $0 > 0 }) {
            parts.append("pd\(padding.map(String.init).joined(separator: ":"))")
        }
        if let background { parts.append("bg\(background)") }
        if let w = watermark { parts.append("wm\(w.opacity):\(w.gravity.rawValue):\(w.x):\(w.y):\(w.scale)") }
        return parts.isEmpty ? "" : "," + parts.joined(separator: ",")
    }

    /// The rotation then the flips, as one orientation.
    var orientation: Orientation {
        (Orientation(rotatingClockwise: rotate) ?? .up).then(.flip(horizontal: flipHorizontal, vertical: flipVertical))
    }
}
