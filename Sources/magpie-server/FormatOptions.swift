import ArgumentParser
import Magpie
import MagpieServer

/// How a result's format follows the client, as imgproxy's variables set it
/// (`IMGPROXY_ENFORCE_WEBP`, `_ENFORCE_AVIF`, `_PREFERRED_FORMATS`, `_ENABLE_CLIENT_HINTS`; the
/// `--auto-*` flags are the server's own).
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

    func apply(to configuration: inout ServiceConfiguration) throws {
        if enforceAvif && !ImageFormat.avif.isEncodable {
            throw ValidationError("--enforce-avif: this build cannot write AVIF (libavif is not there)")
        }
        configuration.enforceWebP = enforceWebp
        configuration.enforceAVIF = enforceAvif
        configuration.clientHints = clientHints
        guard (1...6).contains(webpEffort) else { throw ValidationError("--webp-effort must be 1–6") }
        configuration.webpEffort = webpEffort
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
}
