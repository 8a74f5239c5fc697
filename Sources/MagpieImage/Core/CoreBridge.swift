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

    /// Every format the core's codec table has a row for (those with a media type).
    private static let formats: [magpie_format] = (UInt32(1)...255).map { magpie_format(rawValue: $0) }.filter {
        magpie_format_media_type($0) != nil
    }

    /// The names of those formats.
    static var formatNames: [String] { formats.map(formatName) }

    /// The C value of the format the core names `name`; nil for one it does not name.
    static func cFormat(named name: String) -> magpie_format? { formats.first { formatName($0) == name } }

    /// Whether this build of the core decodes (or encodes) the format named `name`.
    static func decodes(formatNamed name: String) -> Bool {
        cFormat(named: name).map { magpie_format_decodable($0) != 0 } ?? false
    }
    static func encodes(formatNamed name: String) -> Bool {
        cFormat(named: name).map { magpie_format_encodable($0) != 0 } ?? false
    }
    /// Whether libimagequant is there to load (PNG palettes and GIF output).
    static var palettesAvailable: Bool { magpie_palette_available() != 0 }
    /// The media type the core gives the format named `name`.
    static func mediaType(formatNamed name: String) -> String? {
        cFormat(named: name).flatMap { magpie_format_media_type($0).map { String(cString: $0) } }
    }

    /// The core's lowercase name of a format ("unknown" for any it does not name).
    static func formatName(_ f: magpie_format) -> String { String(cString: magpie_format_name(f)) }

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
