import ArgumentParser
import Magpie

struct Thumb: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumb",
        abstract: "Make an upright thumbnail that fits SIZE×SIZE (or W×H), like vipsthumbnail -s.",
        discussion: """
            The output format follows OUT's extension (png, jpg, webp, gif, avif, jxl). An animated IN (GIF, WebP, AVIF \
            sequence) stays animated where OUT's format has animations (webp, gif), a frame at a time; \
            --first-frame writes its first frame alone. Default OUT: tn_<name>.jpg beside IN.
            """)

    @Argument(help: "Input image.")
    var input: String

    @Option(name: .shortAndLong, help: "Box to fit: SIZE or WxH.")
    var size: String

    @Option(name: .shortAndLong, help: "Output file (.png, .jpg, .webp, .gif, .avif, .jxl).")
    var output: String?

    @Flag(name: .long, help: "Only an animation's first frame, as a still.")
    var firstFrame = false

    @Flag(name: .long, help: "Fill the box exactly, centre-cropping what overflows.")
    var fill = false

    @Flag(
        name: .long,
        help:
            "With --fill: keep the most interesting window (edges, skin, saturation: libvips's attention), not the centre."
    )
    var smart = false

    @OptionGroup(title: "Encoding")
    var encoder: EncoderFlags

    @Flag(name: .long, help: "Faster, slightly softer: shrink-on-load down to the size itself, not twice it.")
    var fast = false

    @Flag(
        name: .long,
        help: "Keep the source's colour profile: pixels as stored, the profile in the output (default: sRGB).")
    var keepProfile = false

    @Option(name: .long, help: "Sharpen after the downscale: 'mild' (libvips's default) or SIGMA[,AMOUNT[,THRESHOLD]].")
    var sharpenResize: String?

    @OptionGroup(title: "Effects (the box is of the rotated image)")
    var effects: EffectFlags

    func validate() throws {
        guard Self.parseSize(size) != nil else {
            throw ValidationError("--size must be N or WxH with positive numbers")
        }
        if smart && !fill { throw ValidationError("--smart needs --fill") }
        if let sharpenResize { _ = try EffectFlags.sharpening(sharpenResize) }
    }

    static func parseSize(_ text: String) -> (Int, Int)? {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        let numbers = parts.compactMap { Int($0) }
        guard numbers.count == parts.count, numbers.allSatisfy({ $0 > 0 && $0 <= 65535 }) else { return nil }
        switch numbers.count {
        case 1: return (numbers[0], numbers[0])
        case 2: return (numbers[0], numbers[1])
        default: return nil
        }
    }

    func run() throws {
        let (w, h) = Self.parseSize(size)!
        let out = output ?? Self.defaultOutput(for: input)
        let chain = try effects.processors()
        do {
            if !out.lowercased().hasSuffix(".ppm") { _ = try CLI.encodingFormat(forPath: out, encoder: encoder) }
            if !firstFrame, let animated = try animation(w, h, to: out, effects: chain) {
                try CLI.save(animated, to: out, encoder: encoder)
                return
            }
            var options = DecodingOptions(
                resize: fill ? .fill(width: w, height: h) : .fit(width: w, height: h), frames: .single(0),
                quality: fast ? .fast : .standard)
            options.transform = effects.orientation
            options.keepsColorProfile = keepProfile
            if smart {
                // Cover the box (shrink-on-load as for the centre crop), then find the window.
                var upright = options
                upright.resize = nil
                let (sw, sh) = try Image.outputSize(ofFile: input, options: upright)
                let scale = min(1, max(Double(w) / Double(sw), Double(h) / Double(sh)))
                options.resize = .exact(
                    width: max(1, Int((Double(sw) * scale).rounded())),
                    height: max(1, Int((Double(sh) * scale).rounded())))
            }
            var image = try Image(contentsOfFile: input, options: options)
            if smart {
                image = try CroppingProcessor(width: w, height: h, anchor: .smart).process(
                    .image(image), firstFrameOnly: true)
            }
            if let sharpenResize { image = try image.sharpened(try EffectFlags.sharpening(sharpenResize)) }
            try CLI.save(try EffectFlags.apply(chain, to: image), to: out, encoder: encoder)
        } catch {
            throw CLI.fail(input, error)
        }
    }

    /// An animated input into an animated output, a frame at a time through the same resize and
    /// effects (the smart crop's window found on each frame); nil where either is not animated.
    func animation(_ w: Int, _ h: Int, to out: String, effects chain: [any ImageProcessor]) throws -> Image? {
        guard try CLI.isAnimatedSource(input, output: out, encoder: encoder) else { return nil }
        var resize = DownsamplingProcessor(
            width: w, height: h, mode: smart ? .cover : fill ? .fill : .fit, quality: fast ? .fast : .standard,
            transform: effects.orientation, keepsColorProfile: keepProfile)
        if let sharpenResize { resize.sharpening = try EffectFlags.sharpening(sharpenResize) }
        var steps: [any ImageProcessor] = [resize]
        if smart { steps.append(CroppingProcessor(width: w, height: h, anchor: .smart)) }
        let processor = (steps + chain).dropFirst().reduce(steps[0]) { CompositeProcessor($0, $1) }
        let encoding = try CLI.encodingFormat(forPath: out, encoder: encoder)
        return try AnimationProcessor(processor, format: encoding).animation(of: .file(input), concurrently: true)
    }

    static func defaultOutput(for input: String) -> String {
        let parts = input.split(separator: "/", omittingEmptySubsequences: false)
        let name = String(parts.last ?? "")
        let base = name.split(separator: ".").dropLast().joined(separator: ".")
        let dir = parts.dropLast().joined(separator: "/")
        let file = "tn_" + (base.isEmpty ? name : base) + ".jpg"
        return dir.isEmpty ? file : dir + "/" + file
    }
}

extension ReportedFailure: CustomStringConvertible {
    var description: String { "" }
}
