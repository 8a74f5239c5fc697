/// Turns images into the bytes a disk cache keeps and back (Kingfisher's `CacheSerializer`).
public protocol CacheSerializer: Sendable {
    /// The bytes to store. `original` is the downloaded data when there is one; `isProcessed`
    /// says whether `image` differs from what `original` decodes to.
    func data(for image: Image, original: [UInt8]?, isProcessed: Bool) throws -> [UInt8]
    /// The image from stored bytes.
    func image(from data: [UInt8], options: DecodingOptions) throws -> Image
    /// Whether `other` stores and reads bytes as this one does (so two retrievals with them may
    /// share one flight). Default: the same type with the same description; a serializer that is
    /// `Equatable` compares by value.
    func isEqual(to other: any CacheSerializer) -> Bool
}

extension CacheSerializer {
    public func isEqual(to other: any CacheSerializer) -> Bool {
        ObjectIdentifier(type(of: other)) == ObjectIdentifier(Self.self)
            && String(describing: self) == String(describing: other)
    }
}

extension CacheSerializer where Self: Equatable {
    public func isEqual(to other: any CacheSerializer) -> Bool { (other as? Self) == self }
}

/// Keeps the original bytes of unprocessed images (no re-encoding loss); encodes processed ones
/// as PNG when they have transparency, else as JPEG at `jpegQuality`.
public struct DefaultCacheSerializer: CacheSerializer, Hashable {
    public var jpegQuality: Int
    /// Store the original bytes when the image was not processed (default `true`).
    public var prefersOriginalData: Bool

    public init(jpegQuality: Int = 90, prefersOriginalData: Bool = true) {
        self.jpegQuality = jpegQuality
        self.prefersOriginalData = prefersOriginalData
    }

    public func data(for image: Image, original: [UInt8]?, isProcessed: Bool) throws -> [UInt8] {
        if prefersOriginalData, !isProcessed, let original { return original }
        return try image.encoded(as: image.hasAlpha ? .png() : .jpeg(quality: jpegQuality))
    }

    public func image(from data: [UInt8], options: DecodingOptions) throws -> Image {
        try Image(decoding: data, options: options)
    }
}

/// Always stores one format, whatever the image was decoded from.
public struct FormatIndicatedCacheSerializer: CacheSerializer, Hashable {
    public var format: EncodingFormat
    public init(format: EncodingFormat) { self.format = format }

    public func data(for image: Image, original: [UInt8]?, isProcessed: Bool) throws -> [UInt8] {
        try image.encoded(as: format)
    }

    public func image(from data: [UInt8], options: DecodingOptions) throws -> Image {
        try Image(decoding: data, options: options)
    }
}
