import MagpieImage
import Testing

/// Formats by name and media type, as the C core's codec table gives them to the Swift layers.
@Suite struct ImageFormatNamesTests {
    @Test func mediaTypesComeFromTheCodecTable() {
        #expect(ImageFormat.jpeg.mediaType == "image/jpeg" && ImageFormat.webp.mediaType == "image/webp")
        #expect(
            ImageFormat.ico.mediaType == "image/vnd.microsoft.icon" && ImageFormat.pdf.mediaType == "application/pdf")
        #expect(ImageFormat.svg.mediaType == "image/svg+xml" && ImageFormat.heic.mediaType == "image/heic")
        #expect(ImageFormat.jxl.mediaType == "image/jxl")
        #expect(ImageFormat.unknown.mediaType == nil && ImageFormat(rawValue: "jpeg2000").mediaType == nil)
    }

    @Test func fileExtensionsNameFormatsInAnyCase() {
        let cases: [(String, ImageFormat?)] = [
            ("jpg", .jpeg), ("JPEG", .jpeg), ("jpe", .jpeg), ("png", .png), ("WebP", .webp), ("gif", .gif),
            ("avif", .avif), ("tif", .tiff), ("tiff", .tiff), ("heif", .heic), ("heic", .heic), ("svg", .svg),
            ("ico", .ico), ("bmp", .bmp), ("pdf", .pdf), ("JXL", .jxl), ("unknown", nil), ("exe", nil), ("", nil),
            ("jp g", nil),
        ]
        for (name, format) in cases { #expect(ImageFormat(fileExtension: name) == format, "\(name)") }
        #expect(ImageFormat.jpeg.fileExtension == "jpg" && ImageFormat.webp.fileExtension == "webp")
        #expect(ImageFormat.all == [.jpeg, .png, .gif, .webp, .bmp, .tiff, .heic, .avif, .ico, .svg, .pdf, .jxl])
        #expect(ImageFormat.all.allSatisfy { ImageFormat(fileExtension: $0.fileExtension) == $0 })
    }

    @Test func theStandardEncodingIsThereOnlyForWhatTheBuildWrites() {
        #expect(EncodingFormat.standard(.jpeg, quality: 70) == .jpeg(quality: 70))
        #expect(EncodingFormat.standard(.png, quality: 70) == .png())
        #expect(EncodingFormat.standard(.webp, quality: 70) == .webp(quality: 70))
        #expect(EncodingFormat.standard(.avif, quality: 70) == .avif(quality: 70))
        #expect(EncodingFormat.standard(.gif, quality: 70) == (ImageFormat.gif.isEncodable ? .gif() : nil))
        for format in [ImageFormat.bmp, .heic, .svg, .unknown] {
            #expect(EncodingFormat.standard(format, quality: 70) == nil, "\(format)")
            #expect(!format.isEncodable)
        }
    }
}
