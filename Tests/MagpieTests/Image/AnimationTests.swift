import Foundation
import Testing

@testable import MagpieImage

/// Animations through the library: read a frame at a time, encoded as WebP and GIF, and kept
/// animated through a processor that works frame by frame.
@Suite struct AnimationTests {
    /// `count` frames of `w`×`h`: a flat background with a bar that moves right.
    static func frames(_ count: Int, _ w: Int = 60, _ h: Int = 40) -> [[UInt8]] {
        (0..<count).map { k in
            var px = [UInt8](repeating: 0, count: w * h * 4)
            for y in 0..<h {
                for x in 0..<w {
                    let bar = x >= k * 6 && x < k * 6 + 8
                    let i = (y * w + x) * 4
                    (px[i], px[i + 1], px[i + 2], px[i + 3]) = bar ? (230, 30, 30, 255) : (20, 90, UInt8(40 + y), 255)
                }
            }
            return px
        }
    }

    /// An animation of `count` frames, 50 ms each, looping forever.
    static func animation(_ format: EncodingFormat, count: Int = 6, w: Int = 60, h: Int = 40) throws -> [UInt8] {
        let encoder = try AnimationEncoder(width: w, height: h, format: format, loopCount: 0)
        for frame in frames(count, w, h) { try encoder.add(frame, delay: .milliseconds(50)) }
        return try encoder.finish()
    }

    @Test func framesComeOneAtATimeAsTheWholeDecodeHasThem() throws {
        for format in [EncodingFormat.webpLossless(), .gif()] where format.animates {
            let bytes = try Self.animation(format)
            let whole = try Image(decoding: bytes, options: DecodingOptions(resize: .fit(width: 30, height: 30)))
            #expect(whole.frames.count == 6 && whole.loopCount == 0 && whole.width == 30 && whole.height == 20)
            var seen: [ImageFrame] = []
            let (given, count, loop) = try Image.forEachFrame(
                of: bytes, options: DecodingOptions(resize: .fit(width: 30, height: 30))
            ) { frame, delay in
                #expect(frame.frames.count == 1 && delay == .milliseconds(50))
                seen.append(frame.frames[0])
            }
            #expect(given == 6 && count == 6 && loop == 0)
            #expect(seen == whole.frames, "\(format): the iterator's frames are the whole decode's")
            let firstTwo = try Image.forEachFrame(of: bytes, maxFrames: 2) { _, _ in }
            #expect(firstTwo.given == 2 && firstTwo.frameCount == 6)
        }
    }

    @Test func anAnimatedImageEncodesAsAnAnimation() throws {
        guard EncodingFormat.gif().animates else {
            print("SKIPPED: no GIF output (libimagequant missing)")
            return
        }
        let source = try Image(decoding: try Self.animation(.webpLossless()))
        let gif = try source.encoded(as: .gif())
        let back = try Image(decoding: gif)
        #expect(ImageFormat(sniffing: gif) == .gif && back.frames.count == 6 && back.loopCount == 0)
        #expect(back.frames.map(\.delay) == Array(repeating: .milliseconds(50), count: 6))
        // Few colours: the palette holds them (libimagequant moves a level by at most one); later
        // frames drawn with the first's palette take the entry nearest their colour's 6-bit cell
        // (blues one level apart share a cell here): within 3 levels.
        for (k, (a, b)) in zip(back.frames, source.frames).enumerated() {
            let worst = zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(worst <= (k == 0 ? 1 : 3), "frame \(k): \(worst)")
        }
        // A still GIF, and the first frame of an animation as JPEG.
        let still = try Image(width: 4, height: 4, rgba: [UInt8](repeating: 200, count: 64)).encoded(as: .gif())
        #expect(try Image(decoding: still).frames.count == 1)
        #expect(ImageFormat(sniffing: try source.encoded(as: .jpeg())) == .jpeg)
    }

    @Test func theAnimationProcessorKeepsFramesAndDropsWhatIsAsked() throws {
        let bytes = try Self.animation(.webpLossless(), count: 8)
        let thumb = DownsamplingProcessor(width: 24, height: 24) |> BlurProcessor(sigma: 0.5)
        let processor = AnimationProcessor(thumb, maxFrames: 5)
        let result = try processor.process(.data(bytes), firstFrameOnly: false)
        let animation = try #require(result.animation)
        #expect(animation.format == .webp && animation.frameCount == 5 && animation.framesDropped == 3)
        let decoded = try Image(decoding: animation.data)
        #expect(decoded.frames.count == 5 && decoded.width == 24 && decoded.height == 16)
        #expect(result.frames.count == 1 && result.width == 24, "the image is the first frame")
        // The serializer-facing encode returns the animation's bytes.
        #expect(try result.encoded(as: .webp()) == animation.data)
        // The first frame only: the processor's ordinary still.
        let still = try processor.process(.data(bytes), firstFrameOnly: true)
        #expect(still.animation == nil && still.frames.count == 1)
        // A time limit already passed stops before the first frame.
        let late = AnimationProcessor(thumb, timeLimit: .zero)
        #expect(throws: AnimationTimeLimitExceeded.self) { try late.process(.data(bytes), firstFrameOnly: false) }
    }

    /// Encoding on a queue of its own: frames of a changed size fail there and the failure comes
    /// back; a decode that stops early ends the queue (neither hangs).
    @Test func theEncodingQueueReportsFailuresAndStops() throws {
        let bytes = try Self.animation(.webpLossless(), count: 6)
        var k = 0
        #expect(throws: ImageCodecError.self) {
            _ = try Image.transcodingAnimation(.data(bytes), as: .webp(), concurrently: true) { frame in
                k += 1
                return k == 2 ? try frame.cropped(to: PixelRect(x: 0, y: 0, width: 10, height: 10)) : frame
            }
        }
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            var n = 0
            _ = try Image.transcodingAnimation(.data(bytes), as: .webp(), concurrently: true) { frame in
                n += 1
                if n == 4 { throw Stop() }
                return frame
            }
        }
        let whole = try Image.transcodingAnimation(.data(bytes), as: .webp(), concurrently: true) { $0 }
        #expect(try Image(decoding: try #require(whole.animation).data).frames.count == 6)
    }
}
