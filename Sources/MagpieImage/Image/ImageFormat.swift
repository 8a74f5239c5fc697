#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An image format, identified by content (never by file name).
///
/// An open set of static members, so later versions can add formats without breaking a `switch`.
public struct ImageFormat: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The lowercase name: "jpeg", "png", "gif", …, "unknown".
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let jpeg = ImageFormat(rawValue: "jpeg")
    public static let png = ImageFormat(rawValue: "png")
    public static let gif = ImageFormat(rawValue: "gif")
    public static let webp = ImageFormat(rawValue: "webp")
    public static let bmp = ImageFormat(rawValue: "bmp")
    public static let tiff = ImageFormat(rawValue: "tiff")
    public static let heic = ImageFormat(rawValue: "heic")
    public static let avif = ImageFormat(rawValue: "avif")
    public static let ico = ImageFormat(rawValue: "ico")
    public static let svg = ImageFormat(rawValue: "svg")
    public static let pdf = ImageFormat(rawValue: "pdf")
    public static let jxl = ImageFormat(rawValue: "jxl")
    public static let unknown = ImageFormat(rawValue: "unknown")

    /// Whether this build decodes the format, as the C core says (`magpie_format_decodable`: a
    /// build without an optional codec leaves its formats out). Others are recognised only.
    public var isDecodable: Bool { coreDecodes }

    /// Whether ``Image/encoded(as:)`` writes the format, as the C core says (`magpie_format_encodable`).
    public var isEncodable: Bool { coreEncodes }

    /// Whether this machine writes PNG palettes (``EncodingFormat/pngPalette(colors:compressionLevel:)``):
    /// whether libimagequant is there to load, as for GIF output.
    public static var palettesAvailable: Bool { CoreBridge.palettesAvailable }

    /// The formats an app asks an origin for first: the web's, the smaller encodings first.
    public static let preferred: [ImageFormat] = [.avif, .webp, .png, .jpeg, .gif]

    /// Every format this build decodes: ``preferred`` first, then the rest in the codec table's
    /// order (BMP, TIFF, HEIC, ICO where this machine has their decoders).
    public static var decodable: [ImageFormat] {
        (preferred + all.filter { !preferred.contains($0) }).filter(\.isDecodable)
    }

    /// The media type ("image/jpeg", …), as the C core's codec table gives it; nil for ``unknown``.
    public var mediaType: String? { coreMediaType }

    public var description: String { rawValue }

    /// Sniffs the format from the first bytes (a short prefix is enough).
    public init<Bytes: ContiguousBytes>(sniffing bytes: Bytes) {
        self = ImageFormat(rawValue: bytes.withUnsafeBytes { raw in CorePixels.sniff(raw) })
    }
}
