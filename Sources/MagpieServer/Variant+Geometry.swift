import Magpie

extension Variant {
    /// imgproxy's `ex` (pad out to the box) and `exar` (pad out to the box's aspect ratio, a
    /// canvas ``ImgproxyGeometry`` sizes): the image placed at the gravity on a canvas of the
    /// background colour (transparent unless `bg`; a JPEG's is then white). An image already as
    /// large is left as it is.
    struct Extend: ImageProcessor {
        let width: Int
        let height: Int
        let anchor: CropAnchor
        let color: Color

        var identifier: String { "magpie.serve.extend" }

        func process(_ input: ImageProcessingInput, firstFrameOnly: Bool) throws -> Image {
            let image: Image
            switch input {
            case .data(let data): image = try Image(decoding: data, options: DecodingOptions(frames: .single(0)))
            case .image(let i): image = i.firstFrame
            }
            let (w, h) = (image.width, image.height)
            let (cw, ch) = (max(w, width), max(h, height))
            guard cw > w || ch > h else { return image }
            let (x, y) = anchor.origin(imageWidth: cw, imageHeight: ch, width: w, height: h)
            return try image.padded(top: y, right: cw - w - x, bottom: ch - h - y, left: x, color: color)
        }
    }
}
