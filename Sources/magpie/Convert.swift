import ArgumentParser
import Magpie

struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Decode at full size, upright, apply any effects, and encode to OUT's format (png, jpg, webp, ppm).")

    @Argument(help: "Input image.")
    var input: String

    @Option(name: .shortAndLong, help: "Output file (.png, .jpg, .webp).")
    var output: String

    @Option(name: .long, help: "GIF frame to write, composited (0 = first).")
    var frame = 0

    @Option(name: .long, help: "JPEG and WebP quality 1–100.")
    var quality = 85

    @Flag(
        name: .long,
        help: "Keep the source's colour profile: pixels as stored, the profile in the output (default: sRGB).")
    var keepProfile = false

    @OptionGroup(title: "Effects")
    var effects: EffectFlags

    func validate() throws {
        guard frame >= 0 else { throw ValidationError("--frame must be 0 or more") }
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be 1–100") }
    }

    func run() throws {
        let chain = try effects.processors()
        do {
            if !output.lowercased().hasSuffix(".ppm") { _ = try CLI.encodingFormat(forPath: output, quality: quality) }
            var options = DecodingOptions(frames: .single(frame))
            options.transform = effects.orientation
            options.keepsColorProfile = keepProfile
            let image = try Image(contentsOfFile: input, options: options)
            try CLI.save(try EffectFlags.apply(chain, to: image), to: output, quality: quality)
        } catch {
            throw CLI.fail(input, error)
        }
    }
}
