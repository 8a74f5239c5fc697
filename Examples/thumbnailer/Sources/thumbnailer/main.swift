import Foundation
import Magpie

// Makes a 128-pixel PNG thumbnail: `thumbnailer IN OUT`. Without arguments it draws its own
// gradient, encodes it as JPEG, thumbnails that and checks the result.
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
    }
    // Qualified by the module name, as a client with its own `Image` type would write it.
    let thumbnail = try Magpie.Image(decoding: input, options: .thumbnail(128))
    let png = try thumbnail.encoded(as: .png())
    if arguments.count >= 3 {
        try Data(png).write(to: URL(fileURLWithPath: arguments[2]), options: .atomic)
    }
    print("thumbnailer: \(thumbnail.width)x\(thumbnail.height), \(png.count) bytes of PNG")
    if arguments.count < 2 && (thumbnail.width != 128 || thumbnail.height != 96) {
        print("thumbnailer: unexpected size")
        exit(1)
    }
} catch {
    print("thumbnailer: \(error)")
    exit(1)
}
