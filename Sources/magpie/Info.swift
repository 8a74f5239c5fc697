import ArgumentParser
import Magpie

struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print format, size, frames and orientation of image files.",
        discussion: """
            One line per file. With --json, one object per line: \
            {"path","format","width","height","frames","orientation","profile"} (stored size, \
            before orientation; profile: "none", "converted" to sRGB when decoded, "ignored" when \
            it cannot be used, such as an RGB profile on a grey image, or "unknown" when the file \
            cannot be decoded here) or {"path","error":{"code","message"}}. Exits 1 if any file failed.
            """)

    @Flag(name: .long, help: "One JSON object per line.")
    var json = false

    @Argument(help: "Image files.")
    var files: [String]

    func run() throws {
        var failed = false
        for path in files {
            do {
                let info = try ImageInfo(contentsOfFile: path)
                let profile = Self.profile(path)
                if json {
                    print(
                        "{\"path\":\(JSONText.string(path)),\"format\":\(JSONText.string(info.format.rawValue)),"
                            + "\"width\":\(info.width),\"height\":\(info.height),\"frames\":\(info.frameCount),"
                            + "\"orientation\":\(info.orientation),\"profile\":\"\(profile.name)\"}")
                } else {
                    let frames = info.frameCount == 1 ? "1 frame" : "\(info.frameCount) frames"
                    print(
                        "\(SafeText.printable(path)): \(info.format) \(info.width)x\(info.height), \(frames), orientation \(info.orientation)"
                            + (profile.line.map { ", " + $0 } ?? ""))
                }
            } catch {
                failed = true
                if json {
                    let code = error.coreFailure?.rawCode ?? 0
                    print(
                        "{\"path\":\(JSONText.string(path)),\"error\":{\"code\":\(code),"
                            + "\"message\":\(JSONText.string(CLI.describe(error)))}}")
                }
                _ = CLI.fail(path, error)
            }
        }
        if failed { throw ExitCode.failure }
    }
}

extension Info {
    /// What a decode does with the file's colour profile, found by decoding its first frame as
    /// a small thumbnail (JPEG and WebP shrink on load, so a large file costs little).
    static func profile(_ path: String) -> (name: String, line: String?) {
        var options = DecodingOptions.thumbnail(16)
        options.frames = .single(0)
        guard let image = try? Image(contentsOfFile: path, options: options) else { return ("unknown", nil) }
        switch image.colorProfileHandling {
        case .none: return ("none", nil)
        case .convertedToSRGB, .kept: return ("converted", "colour profile converted to sRGB")
        case .ignored:
            return ("ignored", "colour profile ignored (not of the image's colour space, or unusable)")
        }
    }
}

enum JSONText {
    /// A JSON string literal with the escapes RFC 8259 requires.
    static func string(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
