import Magpie

/// What imgproxy's effect options ask for (their rows are in `EffectOptions+Rows.swift`).
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

    /// The rotation then the flips, as one orientation.
    var orientation: Orientation {
        (Orientation(rotatingClockwise: rotate) ?? .up).then(.flip(horizontal: flipHorizontal, vertical: flipVertical))
    }
}
