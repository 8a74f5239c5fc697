internal import CMagpie

/// Turns C status codes into thrown errors (the one place that does).
enum CoreBridge {
    static func failure(_ status: Int32, detail: String? = nil) -> CoreFailure {
        let message = String(cString: magpie_strerror(status))
        let trimmed = detail.flatMap { $0.isEmpty ? nil : $0 }
        return CoreFailure(
            code: CoreFailure.Code(rawValue: status), rawCode: status, message: message, detail: trimmed)
    }

    static func checkDecoding(_ status: Int32, detail: String? = nil) throws(ImageCodecError) {
        if status != 0 { throw .decodingFailed(failure(status, detail: detail)) }
    }

    static func checkEncoding(_ status: Int32) throws(ImageCodecError) {
        if status != 0 { throw .encodingFailed(failure(status)) }
    }

    /// The C value of a format; nil for one the core does not name.
    static func cFormat(_ f: ImageFormat) -> magpie_format? {
        let all: [magpie_format] = [
            MAGPIE_FORMAT_JPEG, MAGPIE_FORMAT_PNG, MAGPIE_FORMAT_GIF, MAGPIE_FORMAT_WEBP, MAGPIE_FORMAT_BMP,
            MAGPIE_FORMAT_TIFF, MAGPIE_FORMAT_HEIC, MAGPIE_FORMAT_AVIF, MAGPIE_FORMAT_ICO, MAGPIE_FORMAT_SVG,
            MAGPIE_FORMAT_PDF,
        ]
        return all.first { format($0) == f }
    }

    /// Whether this build of the core decodes (or encodes) the format.
    static func decodes(_ f: ImageFormat) -> Bool { cFormat(f).map { magpie_format_decodable($0) != 0 } ?? false }
    static func encodes(_ f: ImageFormat) -> Bool { cFormat(f).map { magpie_format_encodable($0) != 0 } ?? false }

    static func format(_ f: magpie_format) -> ImageFormat {
        switch f {
        case MAGPIE_FORMAT_JPEG: return .jpeg
        case MAGPIE_FORMAT_PNG: return .png
        case MAGPIE_FORMAT_GIF: return .gif
        case MAGPIE_FORMAT_WEBP: return .webp
        case MAGPIE_FORMAT_BMP: return .bmp
        case MAGPIE_FORMAT_TIFF: return .tiff
        case MAGPIE_FORMAT_HEIC: return .heic
        case MAGPIE_FORMAT_AVIF: return .avif
        case MAGPIE_FORMAT_ICO: return .ico
        case MAGPIE_FORMAT_SVG: return .svg
        case MAGPIE_FORMAT_PDF: return .pdf
        default: return .unknown
        }
    }

    /// A Swift string from a NUL-terminated C character buffer.
    static func string(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The C core's version string.
    static var version: String { String(cString: magpie_version_string()) }
}

/// Facts about the C core linked into this build. (Not named `Magpie`: a type named like the
/// module hides the module's other names, so `Magpie.Image` would not compile in a client.)
public enum MagpieCore {
    /// The C core's version string.
    public static var version: String { CoreBridge.version }
}
