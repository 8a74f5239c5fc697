import Foundation
import Magpie

// Makes a 128-pixel thumbnail: `thumbnailer IN OUT`, PNG, or WebP when OUT ends in .webp. IN may be
// JPEG, PNG, GIF, WebP or AVIF. Without arguments it draws its own gradient, encodes it as JPEG
// and as WebP, thumbnails both and checks the results.
let arguments = CommandLine.arguments
do {
    let input: [UInt8]
    if arguments.count >= 2 {
        input = [UInt8](try Data(contentsOf: URL(fileURLWithPath: arguments[1])))
    } else {
        var pixels = [UInt8](repeating: 255, count: 640 * 480 * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) {
            pixels[i] = UInt8((i / 4) % 640 * 255 / 639)
            pixels[i + 1] = UInt8((i / 4) / 640 * 255 / 479)
        }
        input = try Image(width: 640, height: 480, rgba: pixels).encoded(as: .jpeg(quality: 90))
        let webp = try Image(width: 640, height: 480, rgba: pixels).encoded(as: .webp(quality: 90))
        let fromWebP = try Magpie.Image(decoding: webp, options: .thumbnail(128))
        if fromWebP.width != 128 || fromWebP.height != 96 || fromWebP.sourceFormat != .webp {
            print("thumbnailer: unexpected WebP thumbnail")
            exit(1)
        }
    }
    // Qualified by the module name, as a client with its own `Image` type would write it.
    let thumbnail = try Magpie.Image(decoding: input, options: .thumbnail(128))
    let asWebP = arguments.count >= 3 && arguments[2].lowercased().hasSuffix(".webp")
    let output = try thumbnail.encoded(as: asWebP ? .webp() : .png())
    if arguments.count >= 3 {
        try Data(output).write(to: URL(fileURLWithPath: arguments[2]), options: .atomic)
    }
    print(
        "thumbnailer: \(thumbnail.sourceFormat) \(thumbnail.width)x\(thumbnail.height), "
            + "\(output.count) bytes of \(asWebP ? "WebP" : "PNG")")
    if arguments.count < 2 && (thumbnail.width != 128 || thumbnail.height != 96) {
        print("thumbnailer: unexpected size")
        exit(1)
    }
} catch {
    print("thumbnailer: \(error)")
    exit(1)
}
