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
struct MagpieCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "magpie",
        abstract: "Image loading and thumbnails for servers and terminals.",
        version: "magpie \(Magpie.coreVersion)",
        subcommands: [Info.self, Thumb.self, Convert.self]
    )
}

/// A failure already reported on stderr: exit with status 1.
struct ReportedFailure: Error {}

enum CLI {
    /// Writes through a temporary file and a rename, so no reader sees a partial file.
    static func writeFile(_ bytes: [UInt8], to path: String) throws {
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CLIError("cannot write \(path): \(describe(error))")
        }
    }

    static func describe(_ error: any Error) -> String {
        if let e = error as? MagpieError {
            if let failure = e.coreFailure { return failure.description }
            return e.description
        }
        if let e = error as? CLIError { return e.message }
        if let e = error as? CocoaError, let path = e.filePath {
            switch e.code {
            case .fileReadNoSuchFile, .fileNoSuchFile: return "no such file: \(path)"
            case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied: \(path)"
            default: break
            }
        }
        return "\(error)"
    }

    static func fail(_ path: String, _ error: any Error) -> ReportedFailure {
        var stderr = StandardError()
        print("magpie: \(path): \(describe(error))", to: &stderr)
        return ReportedFailure()
    }

    /// Encodes for `path`'s extension: PNG, JPEG, or binary PPM (P6, RGB, for comparisons with djpeg).
    static func encode(_ image: Image, forPath path: String, quality: Int) throws -> [UInt8] {
        if path.lowercased().hasSuffix(".ppm") {
            let header = Array("P6\n\(image.width) \(image.height)\n255\n".utf8)
            let count = image.width * image.height
            let pixels = image.pixels
            return [UInt8](unsafeUninitializedCapacity: header.count + count * 3) { out, initialized in
                for (i, byte) in header.enumerated() { out[i] = byte }
                pixels.withUnsafeBufferPointer { src in
                    var o = header.count
                    for p in 0..<count {
                        out[o] = src[4 * p]
                        out[o + 1] = src[4 * p + 1]
                        out[o + 2] = src[4 * p + 2]
                        o += 3
                    }
                }
                initialized = header.count + count * 3
            }
        }
        return try image.encoded(as: encodingFormat(forPath: path, quality: quality))
    }

    static func encodingFormat(forPath path: String, quality: Int) throws -> EncodingFormat {
        let ext = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch ext {
        case "png": return .png()
        case "jpg", "jpeg": return .jpeg(quality: quality)
        default: throw CLIError("cannot tell the output format from '\(path)': use .png, .jpg, .jpeg or .ppm")
        }
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
