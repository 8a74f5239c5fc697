/// Formats by the names files and URLs give them, and the encoding a format is written with by
/// default: the Swift side of the C core's codec table (which names every format, says what this
/// build decodes and encodes, and gives each its media type), so the CLI and the service ask here
/// rather than list formats of their own.
extension ImageFormat {
    /// Names that differ from a format's own (its ``rawValue``, the core's name).
    private static let aliases: [String: ImageFormat] = ["jpg": .jpeg, "jpe": .jpeg, "tif": .tiff, "heif": .heic]

    /// The format a file extension or a URL's format name means ("jpg", "jpeg", "PNG", "webp",
    /// "tif", …; any case); nil for a name the core does not know.
    public init?(fileExtension name: String) {
        let lower = name.lowercased()
        if let format = Self.aliases[lower] {
            self = format
        } else if CoreBridge.cFormat(named: lower) != nil {
            self.init(rawValue: lower)
        } else {
            return nil
        }
    }

    /// Every format the core knows, in its table's order of values (JPEG, PNG, GIF, WebP, …).
    public static var all: [ImageFormat] { CoreBridge.formatNames.map(ImageFormat.init(rawValue:)) }

    /// The short name files and imgproxy URLs use: "jpg" for JPEG, else the format's own name.
    public var fileExtension: String { self == .jpeg ? "jpg" : rawValue }
}
