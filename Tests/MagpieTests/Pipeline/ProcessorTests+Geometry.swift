import Foundation
import MagpieTestSupport
import Testing

@testable import Magpie

extension ProcessorTests {
    @Test func cropsAreExactAndAnchored() throws {
        let left = try CroppingProcessor(width: 10, height: 80, anchor: .left).process(
            .image(image), firstFrameOnly: false)
        let right = try CroppingProcessor(width: 10, height: 80, anchor: .right).process(
            .image(image), firstFrameOnly: false)
        #expect(left.width == 10 && Array(left.pixels[0..<4]) == Array(image.pixels[0..<4]))
        #expect(Array(right.pixels[0..<4]) == Array(image.pixels[(110 * 4)..<(111 * 4)]))
        // Downsampling from bytes agrees with resizing the decoded image (same size, close pixels).
        let png = try image.encoded(as: .png())
        let fromBytes = try DownsamplingProcessor(width: 60, height: 60, mode: .fill).process(
            .data(png), firstFrameOnly: false)
        let fromImage = try DownsamplingProcessor(width: 60, height: 60, mode: .fill).process(
            .image(image), firstFrameOnly: false)
        #expect(fromBytes.width == fromImage.width && fromBytes.height == fromImage.height)
        let worst = zip(fromBytes.pixels, fromImage.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 8, "worst channel difference \(worst)")
        let cover = try DownsamplingProcessor(width: 60, height: 60, mode: .cover).process(
            .data(png), firstFrameOnly: false)
        #expect(cover.width == 90 && cover.height == 60)
    }

    @Test func badGeometryIsATypedError() {
        #expect(throws: ImageCodecError.self) { try image.resampled(width: 0, height: 10) }
        #expect(throws: ImageCodecError.self) { try image.cropped(to: PixelRect(x: 100, y: 0, width: 30, height: 10)) }
        #expect(throws: ImageCodecError.self) { try image.resampled(width: 30_000, height: 30_000) }
        #expect(throws: ImageCodecError.self) { try image.resampled(width: 4_000_000_000, height: 4_000_000_000) }
        #expect(throws: ImageCodecError.self) { try image.resampled(width: Int.max, height: Int.max) }
    }
}
