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

    /// The encoder table: each encoding's format, whether it loses detail, its quality, and the
    /// same encoding at another quality with its other settings kept.
    @Test func theEncoderTableAnswersForEveryEncoding() {
        let rows: [(EncodingFormat, ImageFormat, Bool, Int?)] = [
            (.png(compressionLevel: 3), .png, false, nil),
            (.jpeg(quality: 70, chromaSubsampling: .yuv444), .jpeg, true, 70),
            (.webp(quality: 60, method: 2), .webp, true, 60), (.webpLossless(effort: 50), .webp, false, nil),
            (.avif(quality: 40, speed: 6), .avif, true, 40), (.gif(dithering: 30), .gif, false, nil),
            (.jxl(quality: 80, effort: 3), .jxl, true, 80), (.jxl(quality: 100), .jxl, false, 100),
            (.pngPalette(colors: 64), .png, false, nil),
        ]
        for (encoding, format, lossy, quality) in rows {
            #expect(
                encoding.format == format && encoding.isLossy == lossy && encoding.quality == quality, "\(encoding)")
            let lower = encoding.withQuality(20)
            #expect(lower.format == format && lower.quality == (quality == nil ? nil : 20), "\(lower)")
            if quality == nil { #expect(lower == encoding, "no quality: unchanged") }
        }
        #expect(
            EncodingFormat.jpeg(quality: 70, chromaSubsampling: .yuv444).withQuality(20)
                == .jpeg(quality: 20, chromaSubsampling: .yuv444))
        #expect(EncodingFormat.avif(quality: 40, speed: 6).withQuality(20) == .avif(quality: 20, speed: 6))
        #expect(EncodingFormat.webp(quality: 60, method: 2).withQuality(20) == .webp(quality: 20, method: 2))
        #expect(EncodingFormat.jxl(quality: 80, effort: 3).withQuality(20) == .jxl(quality: 20, effort: 3))
        // A server's settings: each row takes those for its kind; the others are unchanged.
        let settings = EncoderSettings(
            avifSpeed: 9, webpMethod: 6, webpPreset: .photo, jxlEffort: 4, pngPaletteColors: 128)
        #expect(EncodingFormat.avif(quality: 40, speed: 6).tuned(settings) == .avif(quality: 40, speed: 9))
        #expect(
            EncodingFormat.webp(quality: 60, method: 2).tuned(settings) == .webp(quality: 60, method: 6, preset: .photo)
        )
        #expect(
            EncodingFormat.webpLossless(effort: 50, method: 2).tuned(settings) == .webpLossless(effort: 50, method: 6))
        #expect(EncodingFormat.jxl(quality: 80, effort: 7).tuned(settings) == .jxl(quality: 80, effort: 4))
        #expect(
            EncodingFormat.png(compressionLevel: 3).tuned(settings) == .pngPalette(colors: 128, compressionLevel: 3))
        #expect(EncodingFormat.png().tuned(EncoderSettings()) == .png(), "no palette asked: truecolour")
        for encoding in [EncodingFormat.jpeg(quality: 70), .gif()] {
            #expect(encoding.tuned(settings) == encoding, "\(encoding)")
        }
        #expect(EncodingFormat.standard(.jxl, quality: 70) == (ImageFormat.jxl.isEncodable ? .jxl(quality: 70) : nil))
        // Progressive JPEG and PNG's level: a server's setting for the default; one asked stays.
        let progressive = EncoderSettings(jpegProgressive: true, pngCompressionLevel: 9)
        #expect(EncodingFormat.jpeg(quality: 70).tuned(progressive) == .jpegProgressive(quality: 70))
        #expect(EncodingFormat.jpegProgressive(quality: 70).tuned(EncoderSettings()) == .jpegProgressive(quality: 70))
        #expect(EncodingFormat.jpegProgressive(quality: 70).withQuality(20) == .jpegProgressive(quality: 20))
        #expect(EncodingFormat.png().tuned(progressive) == .png(compressionLevel: 9))
        #expect(EncodingFormat.png(compressionLevel: 3).tuned(progressive) == .png(compressionLevel: 3))
    }

    /// A progressive JPEG is SOF2 with several scans, baseline SOF0 with one; both decode alike.
    @Test func progressiveJPEGIsWrittenInScans() throws {
        let image = try Image(decoding: NetFixture.jpeg)
        let baseline = try image.encoded(as: .jpeg(quality: 80))
        let progressive = try image.encoded(as: .jpegProgressive(quality: 80))
        #expect(Self.jpegFrame(baseline) == (0xC0, 1) && Self.jpegFrame(progressive).0 == 0xC2)
        #expect(Self.jpegFrame(progressive).1 > 1, "several scans")
        let (a, b) = (try Image(decoding: baseline), try Image(decoding: progressive))
        #expect(a.width == b.width && zip(a.pixels, b.pixels).allSatisfy { abs(Int($0) - Int($1)) <= 2 })
    }

    /// The first start-of-frame marker of a JPEG and its count of scans.
    static func jpegFrame(_ d: [UInt8]) -> (Int, Int) {
        var (sof, scans) = (0, 0)
        for i in 2..<(d.count - 1) where d[i] == 0xFF {
            if sof == 0 && (d[i + 1] == 0xC0 || d[i + 1] == 0xC2) { sof = Int(d[i + 1]) }
            if d[i + 1] == 0xDA { scans += 1 }
        }
        return (sof, scans)
    }
}
