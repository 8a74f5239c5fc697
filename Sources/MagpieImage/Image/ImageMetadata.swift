/// Metadata Magpie carries from a source to a result. Its encoders write none by default (as
/// imgproxy's `strip_metadata`); the rights can be kept (imgproxy's `keep_copyright`).
public enum ImageMetadata {
    /// What a file's EXIF says of its rights (IFD0's Copyright and Artist), printable ASCII.
    public struct Rights: Sendable, Hashable {
        public var copyright: String
        public var artist: String
        public init(copyright: String = "", artist: String = "") {
            self.copyright = copyright
            self.artist = artist
        }
        public var isEmpty: Bool { copyright.isEmpty && artist.isEmpty }
    }

    /// The rights in a JPEG, PNG, WebP or TIFF's EXIF (empty when it states none).
    public static func rights(in data: [UInt8]) -> Rights {
        let r = CoreRights.read(data)
        return Rights(copyright: r.copyright, artist: r.artist)
    }

    /// The encoded JPEG, PNG or WebP with an EXIF block holding only `rights` (`width × height`:
    /// the image's size, which a simple WebP needs to become an extended one).
    /// - Throws: ``ImageCodecError/encodingFailed(_:)`` for another format or a malformed file.
    public static func writing(_ rights: Rights, into encoded: [UInt8], width: Int, height: Int)
        throws(ImageCodecError) -> [UInt8]
    {
        if rights.isEmpty { return encoded }
        return try CoreRights.write(rights.copyright, rights.artist, into: encoded, width: width, height: height)
    }

    /// `encoded` with the rights `original` states (unchanged when it states none).
    public static func copyingRights(from original: [UInt8], into encoded: [UInt8], width: Int, height: Int)
        throws(ImageCodecError) -> [UInt8]
    {
        try writing(rights(in: original), into: encoded, width: width, height: height)
    }
}
