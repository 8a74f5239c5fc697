/// A pixel operation given as a function over each frame's RGBA pixels (straight alpha, rows
/// `width * 4` bytes apart), changed in place at the same size: another service's filters held to
/// its arithmetic byte for byte (thumbor's brightness, curves, equalize), where Magpie's own
/// processors compute the same effect their own way.
///
/// The name is the identifier and so part of the cache key: it must name the operation and every
/// argument that changes a pixel (`"thumbor.brightness(10)"`), never the function's address.
public struct PixelMapProcessor: ImageProcessor {
    /// The operation: the frame's pixels, its width and height.
    public typealias Body = @Sendable (_ pixels: inout [UInt8], _ width: Int, _ height: Int) -> Void

    /// The identifier: the operation and its arguments.
    public let name: String
    let body: Body

    /// A processor running `body` over every frame's pixels, named `name` in cache keys.
    public init(name: String, _ body: @escaping Body) {
        self.name = name
        self.body = body
    }

    public var identifier: String { name }

    public func process(_ input: ImageProcessingInput, firstFrameOnly: Bool) throws -> Image {
        let image = try input.image(firstFrameOnly: firstFrameOnly) { $0 }
        return try image.mapFrames(width: image.width, height: image.height) { (pixels) throws(ImageCodecError) in
            var out = pixels
            body(&out, image.width, image.height)
            // The operation changes values, never the size: a body that did is a bug, not an image.
            guard out.count == pixels.count else {
                throw ImageCodecError.invalidPixelBuffer(expectedBytes: pixels.count, actualBytes: out.count)
            }
            return out
        }
    }
}
