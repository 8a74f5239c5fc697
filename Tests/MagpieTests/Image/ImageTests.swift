import Magpie
import Testing

@Suite struct ImageTests {
    @Test func pngRoundTripIsLossless() throws {
        let pixels = Fixture.gradient(width: 33, height: 17) { x, _ in UInt8(x * 7) }
        let image = try Image(width: 33, height: 17, rgba: pixels)
        let png = try image.encoded(as: .png())
        #expect(ImageFormat(sniffing: png) == .png)
        let decoded = try Image(decoding: png)
        #expect(decoded.width == 33 && decoded.height == 17 && decoded.pixels == pixels)
        #expect(try image.encoded(as: .png()) == png, "deterministic")
    }

    @Test func jpegRoundTripStaysClose() throws {
        let pixels = Fixture.gradient(width: 64, height: 64)
        let jpeg = try Image(width: 64, height: 64, rgba: pixels).encoded(
            as: .jpeg(quality: 95, chromaSubsampling: .yuv444))
        let decoded = try Image(decoding: jpeg)
        let worst = zip(decoded.pixels, pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 16)
    }

    @Test(arguments: [
        (DecodingOptions.Resize.fit(width: 256, height: 256), 256, 171),
        (.fit(width: 100, height: 300), 100, 67),
        (.fill(width: 120, height: 120), 120, 120),
        (.exact(width: 50, height: 70), 50, 70),
        (.maxPixels(60_000), 300, 200),
        (.fit(width: 2000, height: 2000), 600, 400),
    ])
    func resizeModesGiveTheirSizes(_ resize: DecodingOptions.Resize, _ width: Int, _ height: Int) throws {
        let jpeg = try Image(width: 600, height: 400, rgba: Fixture.gradient(width: 600, height: 400)).encoded(
            as: .jpeg())
        let options = DecodingOptions(resize: resize)
        let image = try Image(decoding: jpeg, options: options)
        #expect(image.width == width && image.height == height)
        let size = try Image.outputSize(of: jpeg, options: options)
        #expect(size.width == width && size.height == height)
    }

    @Test func upscalingOnlyWhenAsked() throws {
        let png = try Image(width: 20, height: 10, rgba: Fixture.gradient(width: 20, height: 10)).encoded(as: .png())
        let image = try Image(
            decoding: png, options: DecodingOptions(resize: .fit(width: 80, height: 80), allowsUpscaling: true))
        #expect(image.width == 80 && image.height == 40)
    }

    /// A white disc on transparent black: premultiplied filtering keeps edges white.
    @Test func transparentEdgesGetNoDarkFringe() throws {
        let size = 200
        var pixels = [UInt8](repeating: 0, count: size * size * 4)
        for y in 0..<size {
            for x in 0..<size where (x - 100) * (x - 100) + (y - 100) * (y - 100) < 70 * 70 {
                let i = (y * size + x) * 4
                pixels.replaceSubrange(i..<i + 4, with: [255, 255, 255, 255])
            }
        }
        let png = try Image(width: size, height: size, rgba: pixels).encoded(as: .png())
        let thumb = try Image(decoding: png, options: .thumbnail(29))
        var partial = 0
        for i in stride(from: 0, to: thumb.pixels.count, by: 4) where thumb.pixels[i + 3] > 8 {
            #expect(thumb.pixels[i] >= 250, "dark fringe at \(i / 4)")
            if thumb.pixels[i + 3] < 255 { partial += 1 }
        }
        #expect(partial > 0)
    }

    @Test func hostileInputThrowsTypedErrors() throws {
        #expect(throws: ImageCodecError.self) { try Image(decoding: [UInt8]()) }
        do {
            _ = try Image(decoding: Array("not an image at all".utf8))
            Issue.record("decoded text")
        } catch {
            #expect(error.coreFailure?.code == .unknownFormat)
        }
        // A PNG header that claims 65535 x 65535 is refused from the header.
        let bomb: [UInt8] = [
            0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
            0, 0, 0xFF, 0xFF, 0, 0, 0xFF, 0xFF, 8, 6, 0, 0, 0, 0, 0, 0, 0,
        ]
        do {
            _ = try Image(decoding: bomb)
            Issue.record("decoded the bomb")
        } catch {
            #expect(error.coreFailure?.code == .pixelLimitExceeded)
        }
        let jpeg = try Image(width: 300, height: 300, rgba: Fixture.gradient(width: 300, height: 300)).encoded(
            as: .jpeg())
        do {
            _ = try Image(decoding: jpeg, options: DecodingOptions(limits: .init(maxBytes: 100_000)))
            Issue.record("memory limit ignored")
        } catch {
            #expect(error.coreFailure?.code == .memoryLimitExceeded)
        }
        #expect(throws: ImageCodecError.self) { try Image(width: 2, height: 2, rgba: [1, 2, 3]) }
        #expect(throws: ImageCodecError.self) {
            try Image(width: 1, height: 1, rgba: [0, 0, 0, 255]).encoded(as: .jpeg(quality: 0))
        }
    }

    @Test func probeReportsHeaderFacts() throws {
        let png = try Image(width: 5, height: 3, rgba: Fixture.gradient(width: 5, height: 3) { _, _ in 128 })
            .encoded(as: .png())
        let info = try ImageInfo(probing: png)
        #expect(info.format == .png && info.width == 5 && info.height == 3 && info.hasAlpha && info.frameCount == 1)
    }
}
