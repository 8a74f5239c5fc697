import ArgumentParser
import Magpie
import MagpieServer

/// How a result's format follows the client, and how each format is written, as imgproxy's
/// variables set them (`IMGPROXY_ENFORCE_WEBP`, `_ENFORCE_AVIF`, `_AUTO_JXL`, `_ENFORCE_JXL`,
/// `_PREFERRED_FORMATS`, `_ENABLE_CLIENT_HINTS`, `_WEBP_EFFORT`, `_WEBP_PRESET`, `_JXL_EFFORT`,
/// `_PNG_QUANTIZE`, `_PNG_QUANTIZATION_COLORS`, `_JPEG_PROGRESSIVE`; `--auto-webp` and `--auto-avif` are the server's own).
struct FormatOptions: ParsableArguments {
    @Flag(name: .long, help: "Serve WebP to clients that accept it even where the URL names a format.")
    var enforceWebp = false
    @Flag(name: .long, help: "Serve AVIF to clients that accept it even where the URL names a format (stills).")
    var enforceAvif = false
    @Option(
        name: .customLong("preferred-format"),
        help: "A format results are written in where the URL names none, in order (repeatable; default: Magpie's rule)."
    )
    var preferredFormats: [String] = []
    @Flag(name: .long, help: "Take Sec-CH-DPR/DPR and Sec-CH-Width/Width as the defaults of dpr and w.")
    var clientHints = false
    @Option(name: .long, help: "libwebp's method for WebP results, 1 (fast) – 6 (small).")
    var webpEffort = 4
    @Option(name: .long, help: "libwebp's preset for WebP results: default, photo, picture, drawing, icon, text.")
    var webpPreset = "default"
    @Flag(name: .long, help: "Serve JPEG XL to clients that accept it where the URL names no format (stills).")
    var autoJxl = false
    @Flag(name: .long, help: "Serve JPEG XL to clients that accept it even where the URL names a format (stills).")
    var enforceJxl = false
    @Option(name: .long, help: "libjxl's effort for JPEG XL results, 1 (fastest) – 9 (smallest).")
    var jxlEffort = 4
    @Flag(name: .long, help: "Write PNG results with a palette (libimagequant), as pngquant does.")
    var pngQuantize = false
    @Option(name: .long, help: "The most colours of a PNG palette, 2–256 (with --png-quantize).")
    var pngQuantizationColors = 256
    @Flag(name: .long, help: "Write JPEG results progressive (several scans, coarse to fine).")
    var jpegProgressive = false

    func apply(to configuration: inout ServiceConfiguration) throws {
        if enforceAvif && !ImageFormat.avif.isEncodable {
            throw ValidationError("--enforce-avif: this build cannot write AVIF (libavif is not there)")
        }
        if (autoJxl || enforceJxl) && !ImageFormat.jxl.isEncodable {
            throw ValidationError("--auto-jxl, --enforce-jxl: this build cannot write JPEG XL (libjxl is not there)")
        }
        (configuration.enforceWebP, configuration.enforceAVIF) = (enforceWebp, enforceAvif)
        (configuration.autoJXL, configuration.enforceJXL) = (autoJxl, enforceJxl)
        configuration.clientHints = clientHints
        try applyEncoders(to: &configuration)
        guard !preferredFormats.isEmpty else { return }
        var formats: [String] = []
        for name in preferredFormats.flatMap({ $0.split(separator: ",").map(String.init) }) {
            guard let format = ImageFormat(fileExtension: name.trimmingCharacters(in: .whitespaces)) else {
                throw ValidationError("--preferred-format: unknown format \(name)")
            }
            // As imgproxy: a format this build cannot write is left out, with a line saying so.
            guard format.isEncodable else {
                ServerCommand.warn("--preferred-format \(name): this build cannot write it; left out")
                continue
            }
            formats.append(format.fileExtension)
        }
        guard !formats.isEmpty else { throw ValidationError("--preferred-format: none of them can be written here") }
        configuration.preferredFormats = formats
    }

    /// Each format's settings: WebP's method and preset, JPEG XL's effort, PNG palettes.
    func applyEncoders(to configuration: inout ServiceConfiguration) throws {
        guard (1...6).contains(webpEffort) else { throw ValidationError("--webp-effort must be 1–6") }
        guard let preset = EncodingFormat.WebPPreset(rawValue: webpPreset.lowercased()) else {
            throw ValidationError("--webp-preset must be default, photo, picture, drawing, icon or text")
        }
        guard (1...9).contains(jxlEffort) else { throw ValidationError("--jxl-effort must be 1–9") }
        guard (2...256).contains(pngQuantizationColors) else {
            throw ValidationError("--png-quantization-colors must be 2–256")
        }
        if pngQuantize && !ImageFormat.palettesAvailable {
            throw ValidationError("--png-quantize: libimagequant is not there (Debian: libimagequant0)")
        }
        (configuration.webpEffort, configuration.webpPreset, configuration.jxlEffort) = (webpEffort, preset, jxlEffort)
        configuration.pngPaletteColors = pngQuantize ? pngQuantizationColors : nil
        configuration.jpegProgressive = jpegProgressive
    }
}
