import ArgumentParser
import Magpie

/// The effects `thumb` and `convert` take, applied in a fixed order (as imgproxy applies its
/// options): rotate and flip (composed with the EXIF orientation while decoding), blur, sharpen,
/// colour, round corners or circle with a border, padding, background, watermark.
struct EffectFlags: ParsableArguments {
    @Option(name: .long, help: "Rotate clockwise by 90, 180 or 270 degrees.")
    var rotate: Int?
    @Option(name: .long, help: "Flip: h (left-right), v (top-bottom) or hv.")
    var flip: String?
    @Option(name: .long, help: "Gaussian blur with this sigma (0–100).")
    var blur: Double?
    @Option(name: .long, help: "Unsharp mask: SIGMA[,AMOUNT[,THRESHOLD]], or 'mild' (libvips's default).")
    var sharpen: String?
    @Option(name: .long, help: "Saturation factor, 0 (gray) to 10.")
    var saturation: Double?
    @Option(name: .long, help: "Contrast factor around mid-grey, 0 to 10.")
    var contrast: Double?
    @Option(name: .long, help: "Brightness, -255 to 255 levels.")
    var brightness: Double?
    @Flag(name: .long, help: "Rec. 709 grayscale.")
    var grayscale = false
    @Option(name: .long, help: "Tint: COLOR[,AMOUNT] (hex RRGGBB, amount 0–1, default 0.5).")
    var tint: String?
    @Option(name: .long, help: "Round the corners with this radius in pixels.")
    var roundCorners: Double?
    @Flag(name: .long, help: "Crop to the centred square and make it a circle.")
    var circle = false
    @Option(name: .long, help: "A border inside the outline: WIDTH[,COLOR] (hex RRGGBB[AA], default black).")
    var border: String?
    @Option(name: .long, help: "Padding: N, or TOP,RIGHT,BOTTOM,LEFT pixels.")
    var pad: String?
    @Option(name: .long, help: "Padding colour, hex RRGGBB[AA] (default transparent).")
    var padColor: String?
    @Option(name: .long, help: "Flatten transparency onto this colour (hex RRGGBB).")
    var background: String?
    @Option(name: .long, help: "Composite this image over the result.")
    var watermark: String?
    @Option(name: .long, help: "Watermark position: ce, no, so, ea, we, noea, nowe, soea, sowe (default soea).")
    var watermarkGravity = "soea"
    @Option(name: .long, help: "Watermark opacity, 0–1.")
    var watermarkOpacity = 1.0
    @Option(name: .long, help: "Watermark offset inward from its edge: X,Y pixels.")
    var watermarkOffset = "0,0"
    @Option(name: .long, help: "Scale the watermark to fit this fraction (0–1] of the image.")
    var watermarkScale: Double?

    /// The rotation and flip as one orientation (composed with EXIF's while decoding).
    var orientation: Orientation {
        let turn = rotate.flatMap { Orientation(rotatingClockwise: $0) } ?? .up
        let f = flip?.lowercased() ?? ""
        return turn.then(.flip(horizontal: f.contains("h"), vertical: f.contains("v")))
    }

    func validate() throws {
        if let rotate, ![0, 90, 180, 270].contains(rotate) { throw ValidationError("--rotate must be 90, 180 or 270") }
        if let flip, !["h", "v", "hv", "vh"].contains(flip.lowercased()) {
            throw ValidationError("--flip must be h, v or hv")
        }
        _ = try processors(loadingWatermark: false)
    }

    /// The processors after the decode, in their fixed order.
    func processors(loadingWatermark: Bool = true) throws -> [any ImageProcessor] {
        var chain: [any ImageProcessor] = []
        if let blur {
            guard (0...100).contains(blur) else { throw ValidationError("--blur must be 0–100") }
            chain.append(BlurProcessor(sigma: blur))
        }
        if let sharpen { chain.append(SharpenProcessor(try Self.sharpening(sharpen))) }
        var color = ColorAdjustment(
            saturation: grayscale ? 0 : saturation ?? 1, contrast: contrast ?? 1, brightness: brightness ?? 0)
        if let tint {
            let parts = tint.split(separator: ",").map(String.init)
            guard let c = parts.first.flatMap(Color.init(hex:)), parts.count <= 2,
                let amount = parts.count == 2 ? Double(parts[1]) : 0.5, (0...1).contains(amount)
            else { throw ValidationError("--tint must be COLOR[,AMOUNT] with a hex colour and an amount of 0–1") }
            color.tint = c
            color.tintAmount = amount
        }
        guard (0...10).contains(color.saturation), (0...10).contains(color.contrast),
            (-255...255).contains(color.brightness)
        else { throw ValidationError("--saturation and --contrast must be 0–10, --brightness -255–255") }
        if !color.isIdentity { chain.append(ColorProcessor(color)) }
        var borderWidth = 0.0
        var borderColor = Color.black
        if let border {
            let parts = border.split(separator: ",").map(String.init)
            guard let w = parts.first.flatMap(Double.init), w >= 0, w <= 10_000, parts.count <= 2,
                let c = parts.count == 2 ? Color(hex: parts[1]) : .black
            else { throw ValidationError("--border must be WIDTH[,COLOR] with a hex colour") }
            (borderWidth, borderColor) = (w, c)
        }
        if circle {
            chain.append(RoundCornerProcessor.circle(borderWidth: borderWidth, borderColor: borderColor))
        } else if roundCorners != nil || border != nil {
            let r = roundCorners ?? 0
            guard r >= 0, r <= 1_000_000 else { throw ValidationError("--round-corners must be 0 or more") }
            chain.append(RoundCornerProcessor(radius: .pixels(r), borderWidth: borderWidth, borderColor: borderColor))
        }
        if let pad {
            let n = pad.split(separator: ",").compactMap { Int($0) }
            guard n.count == 1 || n.count == 4, n.allSatisfy({ (0...65_535).contains($0) }) else {
                throw ValidationError("--pad must be N or TOP,RIGHT,BOTTOM,LEFT, each 0–65535")
            }
            let m = n.count == 1 ? [n[0], n[0], n[0], n[0]] : n
            guard let c = padColor.map(Color.init(hex:)) ?? .clear else {
                throw ValidationError("--pad-color must be hex")
            }
            chain.append(PaddingProcessor(top: m[0], right: m[1], bottom: m[2], left: m[3], color: c))
        }
        if let background {
            guard let c = Color(hex: background) else { throw ValidationError("--background must be hex RRGGBB") }
            chain.append(BackgroundProcessor(c))
        }
        if let watermark { chain.append(contentsOf: try overlay(watermark, loading: loadingWatermark)) }
        return chain
    }

    private func overlay(_ path: String, loading: Bool) throws -> [any ImageProcessor] {
        guard let anchor = Self.gravity[watermarkGravity] else {
            throw ValidationError(
                "--watermark-gravity must be one of \(Self.gravity.keys.sorted().joined(separator: ", "))")
        }
        let offset = watermarkOffset.split(separator: ",").compactMap { Int($0) }
        guard offset.count == 2, offset.allSatisfy({ abs($0) <= 1 << 20 }) else {
            throw ValidationError("--watermark-offset must be X,Y")
        }
        guard (0...1).contains(watermarkOpacity), watermarkScale.map({ $0 > 0 && $0 <= 1 }) ?? true else {
            throw ValidationError("--watermark-opacity must be 0–1 and --watermark-scale in (0, 1]")
        }
        guard loading else { return [] }
        do {
            return [
                try OverlayProcessor(
                    contentsOfFile: path, anchor: anchor, offsetX: offset[0], offsetY: offset[1],
                    opacity: watermarkOpacity, scale: watermarkScale)
            ]
        } catch {
            throw CLI.fail(path, error)
        }
    }

    /// imgproxy's gravity names.
    static let gravity: [String: CropAnchor] = [
        "ce": .center, "no": .top, "so": .bottom, "ea": .right, "we": .left, "noea": .topRight, "nowe": .topLeft,
        "soea": .bottomRight, "sowe": .bottomLeft,
    ]

    static func sharpening(_ text: String) throws -> Sharpening {
        if text == "mild" { return .afterResize }
        let n = text.split(separator: ",").map { Double($0) }
        guard (1...3).contains(n.count), n.allSatisfy({ $0 != nil }) else {
            throw ValidationError("--sharpen must be 'mild' or SIGMA[,AMOUNT[,THRESHOLD]]")
        }
        let s = Sharpening(sigma: n[0]!, amount: n.count > 1 ? n[1]! : 1, threshold: n.count > 2 ? n[2]! : 0)
        guard (0...100).contains(s.sigma), (0...100).contains(s.amount), (0...255).contains(s.threshold) else {
            throw ValidationError("--sharpen: sigma 0–100, amount 0–100, threshold 0–255")
        }
        return s
    }

    /// `image` through `chain` (from ``processors(loadingWatermark:)``, made before the input is
    /// read so a watermark that fails is reported under its own name).
    static func apply(_ chain: [any ImageProcessor], to image: Image) throws -> Image {
        try chain.reduce(image) { try $1.process(.image($0), firstFrameOnly: false) }
    }
}
