import ArgumentParser
import Magpie

/// How OUT is written: the quality, and each format's own settings (the library's
/// ``EncoderSettings``: JPEG XL's effort, WebP's method and preset, AVIF's speed, PNG palettes,
/// progressive JPEG).
/// The format itself follows OUT's extension.
struct EncoderFlags: ParsableArguments {
    @Option(name: .long, help: "JPEG, WebP, AVIF and JPEG XL quality 1–100 (JPEG XL: 100 is lossless).")
    var quality = 85

    @Option(name: .long, help: "JPEG XL's effort, 1 (fastest) – 9 (smallest), cjxl's -e.")
    var jxlEffort = 7

    @Option(name: .long, help: "WebP's method, 0 (fast) – 6 (small), cwebp's -m.")
    var webpMethod = 4

    @Option(name: .long, help: "WebP's preset: default, photo, picture, drawing, icon, text (cwebp's -preset).")
    var webpPreset = "default"

    @Option(name: .long, help: "AVIF's speed, 0 (slowest, smallest) – 10.")
    var avifSpeed = 8

    @Option(
        name: .long, help: "Write PNG with a palette of at most N colours, 2–256 (libimagequant), as pngquant does.")
    var pngColors: Int?

    @Flag(name: .long, help: "Write JPEG progressive (several scans, coarse to fine), as cjpeg -progressive.")
    var progressive = false

    func validate() throws {
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be 1–100") }
        guard (1...9).contains(jxlEffort) else { throw ValidationError("--jxl-effort must be 1–9") }
        guard (0...6).contains(webpMethod) else { throw ValidationError("--webp-method must be 0–6") }
        guard EncodingFormat.WebPPreset(rawValue: webpPreset) != nil else {
            throw ValidationError("--webp-preset must be default, photo, picture, drawing, icon or text")
        }
        guard (0...10).contains(avifSpeed) else { throw ValidationError("--avif-speed must be 0–10") }
        if let pngColors {
            guard (2...256).contains(pngColors) else { throw ValidationError("--png-colors must be 2–256") }
            guard ImageFormat.palettesAvailable else {
                throw ValidationError("--png-colors: libimagequant is not there (Debian: libimagequant0)")
            }
        }
    }

    var settings: EncoderSettings {
        EncoderSettings(
            avifSpeed: avifSpeed, webpMethod: webpMethod,
            webpPreset: EncodingFormat.WebPPreset(rawValue: webpPreset)
                ?? .default, jxlEffort: jxlEffort, pngPaletteColors: pngColors, jpegProgressive: progressive)
    }
}
