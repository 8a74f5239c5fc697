import ArgumentParser
import Magpie

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

@main
struct MagpieCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "magpie",
        abstract: "Image loading and thumbnails for servers and terminals.",
        version: "magpie \(MagpieCore.version)",
        subcommands: [
            Fetch.self, Prefetch.self, Demo.self, Info.self, Thumb.self, Convert.self, CacheCommand.self, Serve.self,
        ]
    )
}

/// A failure already reported on stderr: exit with status 1.
struct ReportedFailure: Error {}

enum CLI {
    static func describe(_ error: any Error) -> String {
        if let e = error as? ImageCodecError {
            if let failure = e.coreFailure { return failure.description }
            return e.description
        }
        if let e = error as? CLIError { return e.message }
        return "\(error)"
    }

    static func fail(_ path: String, _ error: any Error) -> ReportedFailure {
        var stderr = StandardError()
        print("magpie: \(SafeText.printable(path)): \(SafeText.printable(describe(error)))", to: &stderr)
        return ReportedFailure()
    }

    /// Writes the first frame to `path` in the format of its extension (any encodable format, see
    /// `encodingFormat(forPath:quality:)`), or binary PPM (P6, RGB, for comparisons with djpeg).
    static func save(_ image: Image, to path: String, encoder: EncoderFlags) throws {
        if path.lowercased().hasSuffix(".ppm") {
            try OutputFile.write(to: path) { try $0.writePPM(image) }
            return
        }
        let bytes = try image.encoded(as: encodingFormat(forPath: path, encoder: encoder))
        try OutputFile.write(to: path) { try $0.write(bytes) }
    }

    /// Creates `path` and its missing parents.
    static func makeDirectory(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw fail(path, CLIError("cannot create directory"))
        }
    }

    /// Whether `input` is an animation and `output`'s format writes animations.
    static func isAnimatedSource(_ input: String, output: String, encoder: EncoderFlags) throws -> Bool {
        guard !output.lowercased().hasSuffix(".ppm"), try encodingFormat(forPath: output, encoder: encoder).animates
        else { return false }
        return try ImageInfo(contentsOfFile: input).frameCount > 1
    }

    /// The encoding OUT's extension names, at the flags' quality and with their settings.
    static func encodingFormat(forPath path: String, encoder: EncoderFlags) throws -> EncodingFormat {
        let ext = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        if let format = ImageFormat(fileExtension: ext),
            let encoding = EncodingFormat.standard(format, quality: encoder.quality)
        {
            return encoding.tuned(encoder.settings)
        }
        let written = ImageFormat.all.filter(\.isEncodable).map { "." + $0.fileExtension } + [".ppm"]
        let what = ImageFormat(fileExtension: ext).map { "this build does not write \($0.rawValue.uppercased())" }
        throw CLIError(
            "\(what ?? "cannot tell the output format from '\(path)'"): use \(written.joined(separator: ", "))")
    }
}

struct CLIError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        var s = string
        s.withUTF8 { buffer in _ = Glibc.write(2, buffer.baseAddress, buffer.count) }
    }
}
