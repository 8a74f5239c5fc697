/// Encoded image bytes, in memory or in a file: what an animation is read from a frame at a time
/// (a file through a small window where the format allows, so a long GIF is never held whole).
public enum EncodedSource: Sendable {
    case data([UInt8])
    case file(String)

    /// The header's facts.
    public func info() throws(ImageCodecError) -> ImageInfo {
        switch self {
        case .data(let bytes): return try ImageInfo(probing: bytes)
        case .file(let path): return try ImageInfo(contentsOfFile: path)
        }
    }

    /// The size a decode with `options` would produce, from the header alone.
    public func outputSize(options: DecodingOptions) throws(ImageCodecError) -> (width: Int, height: Int) {
        switch self {
        case .data(let bytes): return try Image.outputSize(of: bytes, options: options)
        case .file(let path): return try Image.outputSize(ofFile: path, options: options)
        }
    }

    /// `body` with the core's input over these bytes.
    func withInput<R>(_ body: (CoreInput) throws -> R) throws -> R {
        switch self {
        case .data(let bytes): return try bytes.withUnsafeBytes { raw in try body(CoreInput(memory: raw)) }
        case .file(let path): return try body(CoreInput(path: path))
        }
    }
}
