import ArgumentParser
import Magpie

struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract:
            "Decode at full size, upright, apply any effects, and encode to OUT's format (png, jpg, webp, gif, avif, jxl, ppm).",
        discussion: """
            An animated IN stays animated where OUT's format has animations (webp, gif), a frame at a time; \
            --first-frame or --frame N writes one frame.
            """)

    @Argument(help: "Input image.")
    var input: String

    @Option(name: .shortAndLong, help: "Output file (.png, .jpg, .webp, .gif, .avif, .jxl).")
    var output: String

    @Option(name: .long, help: "One frame of an animation to write, composited (0 = first).")
    var frame: Int?

    @Flag(name: .long, help: "Only an animation's first frame, as a still.")
    var firstFrame = false

    @OptionGroup(title: "Encoding")
    var encoder: EncoderFlags

    @Flag(
        name: .long,
        help: "Keep the source's colour profile: pixels as stored, the profile in the output (default: sRGB).")
    var keepProfile = false

    @OptionGroup(title: "Effects")
    var effects: EffectFlags

    func validate() throws {
        guard (frame ?? 0) >= 0 else { throw ValidationError("--frame must be 0 or more") }
    }

    func run() throws {
        let chain = try effects.processors()
        do {
            if !output.lowercased().hasSuffix(".ppm") { _ = try CLI.encodingFormat(forPath: output, encoder: encoder) }
            if frame == nil, !firstFrame, try CLI.isAnimatedSource(input, output: output, encoder: encoder) {
                // Every frame, upright and turned, then the effects, encoded as they come.
                let turn: any ImageProcessor = TransformProcessor(effects.orientation)
                let processor = chain.reduce(turn) { CompositeProcessor($0, $1) }
                let encoding = try CLI.encodingFormat(forPath: output, encoder: encoder)
                if let image = try AnimationProcessor(processor, format: encoding).animation(
                    of: .file(input), concurrently: true)
                {
                    try CLI.save(image, to: output, encoder: encoder)
                    return
                }
            }
            var options = DecodingOptions(frames: .single(frame ?? 0))
            options.transform = effects.orientation
            options.keepsColorProfile = keepProfile
            let image = try Image(contentsOfFile: input, options: options)
            try CLI.save(try EffectFlags.apply(chain, to: image), to: output, encoder: encoder)
        } catch {
            throw CLI.fail(input, error)
        }
    }
}
