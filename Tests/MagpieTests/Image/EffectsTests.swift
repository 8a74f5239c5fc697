import Testing

@testable import Magpie

/// The effect processors through the Swift layers: composition with EXIF orientation, fused
/// chains, identity settings, typed errors for bad parameters, geometry of corners and overlays.
/// (Pixel accuracy against double-precision references is `ctest`'s `process` test.)
@Suite struct EffectsTests {
    static let source = try! Image(
        width: 40, height: 30, rgba: Fixture.gradient(width: 40, height: 30) { x, y in UInt8((x * 7 + y * 3) % 256) })

    @Test func rotationAfterADownsampleIsOneDecodeWithTheSamePixels() throws {
        let jpeg = try Image(width: 120, height: 80, rgba: Fixture.gradient(width: 120, height: 80)).encoded(
            as: .jpeg(quality: 90))
        for mode in [ContentMode.fit, .fill, .cover, .exact] {
            for turn in Orientation.allCases {
                let shrink = DownsamplingProcessor(width: 50, height: 20, mode: mode)
                let fused = try (shrink |> TransformProcessor(turn)).process(.data(jpeg), firstFrameOnly: true)
                let apart = try shrink.process(.data(jpeg), firstFrameOnly: true).transformed(turn)
                #expect(fused == apart, "\(mode) then \(turn)")
            }
        }
    }

    /// JPEGs with each of the eight EXIF orientations (made here; the corpus's EXIF set too where
    /// it is present): a decode told to turn composes the file's orientation with the turn, and
    /// gives exactly the upright decode turned afterwards.
    @Test func decodeTransformsComposeWithEXIF() throws {
        let jpeg = try Image(width: 96, height: 64, rgba: Fixture.gradient(width: 96, height: 64))
            .encoded(as: .jpeg(quality: 90))
        var inputs: [(String, [UInt8])] = (1...8).map {
            ("exif-\($0).jpg", ImageServiceTests.exifJPEG(jpeg, orientation: UInt16($0)))
        }
        if Corpus.directory != nil {
            for row in Corpus.rows where row.path.hasPrefix("jpeg/exif-orientation/") {
                inputs.append((row.path, try Corpus.bytes(row.path)))
            }
        }
        for (name, bytes) in inputs {
            let upright = try Image(decoding: bytes, options: .thumbnail(64))
            for turn in Orientation.allCases {
                var options = DecodingOptions.thumbnail(64)
                options.transform = turn
                let once = try Image(decoding: bytes, options: options)
                #expect(once == (try upright.transformed(turn)), "\(name) \(turn)")
            }
        }
        #expect(try Image(decoding: inputs[5].1).width == 64, "orientation 6 is upright: portrait")
    }

    @Test func orientationsComposeAsRotations() {
        #expect(Orientation(rotatingClockwise: 90) == .right)
        #expect(Orientation(rotatingClockwise: -90) == .left)
        #expect(Orientation(rotatingClockwise: 450) == .right)
        #expect(Orientation(rotatingClockwise: 45) == nil)
        #expect(Orientation.right.then(.right) == .down)
        #expect(Orientation.right.then(.left) == .up)
        for a in Orientation.allCases {
            for b in Orientation.allCases {
                // Applying a then b to pixels equals applying the composition once.
                let twice = try? Self.source.transformed(a).transformed(b)
                #expect(twice == (try? Self.source.transformed(a.then(b))), "\(a) then \(b)")
            }
        }
    }

    @Test func identitySettingsReturnIdenticalPixels() throws {
        let s = Self.source
        #expect(try s.blurred(sigma: 0) == s)
        #expect(try BlurProcessor(sigma: 0.1).process(.image(s), firstFrameOnly: false) == s)
        #expect(try s.sharpened(Sharpening(amount: 0)) == s)
        #expect(try s.adjustingColor(ColorAdjustment()) == s)
        #expect(try s.transformed(.up) == s)
        #expect(try s.padded(top: 0, right: 0, bottom: 0, left: 0, color: .white) == s)
        #expect(try s.roundingCorners(radius: 0) == s)
        #expect(try s.compositing(Self.source, x: 0, y: 0, opacity: 0) == s)
        #expect(try s.compositing(Self.source, x: 1000, y: -1000) == s)
    }

    @Test func badParametersAreTypedErrors() {
        let s = Self.source
        func isInvalid(_ body: () throws -> Image) -> Bool {
            do {
                _ = try body()
                return false
            } catch let error as ImageCodecError {
                return error.coreFailure?.code == .invalidArgument
            } catch {
                return false
            }
        }
        #expect(isInvalid { try s.blurred(sigma: .nan) })
        #expect(isInvalid { try s.blurred(sigma: -1) })
        #expect(isInvalid { try s.blurred(sigma: 1e9) })
        #expect(isInvalid { try s.sharpened(Sharpening(sigma: .infinity)) })
        #expect(isInvalid { try s.sharpened(Sharpening(amount: -2)) })
        #expect(isInvalid { try s.roundingCorners(radius: .nan) })
        #expect(isInvalid { try s.roundingCorners(radius: 3, borderWidth: -1) })
        #expect(isInvalid { try s.adjustingColor(ColorAdjustment(contrast: .nan)) })
        #expect(isInvalid { try s.adjustingColor(ColorAdjustment(brightness: 256)) })
        #expect(isInvalid { try s.padded(top: -1, right: 0, bottom: 0, left: 0, color: .white) })
        #expect(isInvalid { try s.compositing(s, x: 0, y: 0, opacity: 1.5) })
        #expect(isInvalid { try OverlayProcessor(s, scale: 0).process(.image(s), firstFrameOnly: false) })
        #expect(
            isInvalid { try RoundCornerProcessor(radius: .fraction(0.7)).process(.image(s), firstFrameOnly: false) })
        #expect(throws: ImageCodecError.self) {
            try s.padded(top: Int.max, right: 0, bottom: Int.max, left: 0, color: .white)
        }
    }

    @Test func aCircleIsTheCentredSquareWithSoftEdges() throws {
        let opaque = try Image(width: 40, height: 30, rgba: Fixture.gradient(width: 40, height: 30))
        let circle = try RoundCornerProcessor.circle().process(.image(opaque), firstFrameOnly: false)
        #expect(circle.width == 30 && circle.height == 30)
        let alpha = { (x: Int, y: Int) in circle.pixels[(y * 30 + x) * 4 + 3] }
        #expect(alpha(0, 0) == 0 && alpha(29, 29) == 0 && alpha(15, 15) == 255 && alpha(0, 15) > 0)
        // The edge is anti-aliased: some pixels are neither inside nor outside.
        let partial = stride(from: 3, to: circle.pixels.count, by: 4).filter { (1...254).contains(circle.pixels[$0]) }
        #expect(partial.count > 30)
        // Centre pixels keep the source's colour (the crop starts at x = 5).
        #expect(circle.pixels[(15 * 30 + 15) * 4] == opaque.pixels[(15 * 40 + 20) * 4])
    }

    @Test func anOverlaySitsAtItsGravityWithItsOffset() throws {
        let white = try Image(width: 20, height: 10, rgba: [UInt8](repeating: 255, count: 20 * 10 * 4))
        let red = try Image(width: 4, height: 2, rgba: Array(repeating: [255, 0, 0, 255], count: 8).flatMap { $0 })
        let marked = try OverlayProcessor(red, anchor: .bottomRight, offsetX: 1, offsetY: 2).process(
            .image(white), firstFrameOnly: false)
        func isRed(_ x: Int, _ y: Int) -> Bool { marked.pixels[(y * 20 + x) * 4 + 1] == 0 }
        #expect(isRed(15, 6) && isRed(18, 7) && !isRed(19, 7) && !isRed(15, 8) && !isRed(14, 6))
        let half = try OverlayProcessor(red, anchor: .topLeft, opacity: 0.5).process(
            .image(white), firstFrameOnly: false)
        #expect(half.pixels[1] == 128 && half.pixels[0] == 255 && half.pixels[3] == 255)
        let scaled = try OverlayProcessor(red, anchor: .center, scale: 1).process(.image(white), firstFrameOnly: false)
        #expect(scaled.pixels.enumerated().filter { $0.offset % 4 == 1 && $0.element == 0 }.count == 20 * 10)
    }

    @Test func paddingAndBackgroundChangeTheSizeAndAlpha() throws {
        let clear = try Image(
            width: 4, height: 3, rgba: Fixture.gradient(width: 4, height: 3) { x, _ in UInt8(x * 80) })
        let padded = try PaddingProcessor(top: 1, right: 2, bottom: 3, left: 4, color: .white).process(
            .image(clear), firstFrameOnly: false)
        #expect(padded.width == 10 && padded.height == 7 && padded.pixels[0...3] == [255, 255, 255, 255])
        let flat = try BackgroundProcessor(.black).process(.image(clear), firstFrameOnly: false)
        #expect(!flat.hasAlpha && flat.pixels[0...3] == [0, 0, 0, 255])
    }

    @Test func chainsApplyInTheOrderGiven() throws {
        let gray = ColorProcessor.grayscale
        let round = RoundCornerProcessor(
            radius: .pixels(6), borderWidth: 2, borderColor: Color(red: 255, green: 0, blue: 0))
        let a = try (gray |> round).process(.image(Self.source), firstFrameOnly: false)
        let b = try (round |> gray).process(.image(Self.source), firstFrameOnly: false)
        // Gray then round keeps a red border; round then gray turns it gray.
        let edge = (15 * 40 + 0) * 4
        #expect(a.pixels[edge] == 255 && a.pixels[edge + 1] == 0)
        #expect(b.pixels[edge] == b.pixels[edge + 1])
        #expect((gray |> round).identifier != (round |> gray).identifier)
    }

    @Test func aChainThatOnlyResizesStillShrinksOnLoad() throws {
        let jpeg = try Image(width: 400, height: 300, rgba: Fixture.gradient(width: 400, height: 300)).encoded(
            as: .jpeg())
        let chained = try (DownsamplingProcessor(width: 50, height: 50) |> BlurProcessor(sigma: 0))
            .process(.data(jpeg), firstFrameOnly: true)
        let direct = try Image(decoding: jpeg, options: DecodingOptions(resize: .fit(width: 50, height: 50)))
        #expect(chained == direct)
    }

    @Test func sharpeningAfterResizeIsOffByDefaultAndNamed() throws {
        let jpeg = try Image(width: 200, height: 150, rgba: Fixture.gradient(width: 200, height: 150)).encoded(
            as: .jpeg())
        let plain = try DownsamplingProcessor(width: 64, height: 64).process(.data(jpeg), firstFrameOnly: true)
        let sharp = try DownsamplingProcessor(width: 64, height: 64, sharpening: .afterResize).process(
            .data(jpeg), firstFrameOnly: true)
        #expect(plain.width == sharp.width && plain.height == sharp.height)
        #expect(try sharp == plain.sharpened(.afterResize))
    }
}
