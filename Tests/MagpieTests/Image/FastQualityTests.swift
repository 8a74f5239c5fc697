import Foundation
import MagpieTestSupport
import Testing

@testable import Magpie

/// `DecodingOptions.Quality.fast`: shrink-on-load down to the target, not twice it. Same sizes,
/// a measurable loss against resizing the full decode, its own cache identity, and the DSL and
/// CLI spellings.
@Suite struct FastQualityTests {
    /// A 1600×1200 JPEG with detail at every scale.
    static let jpeg: [UInt8] = {
        let (w, h) = (1600, 1200)
        var p = [UInt8](repeating: 255, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                let i = (y * w + x) * 4
                p[i] = UInt8(128 + 120 * sin(Double(x) * 0.031) * cos(Double(y) * 0.017))
                p[i + 1] = UInt8((x ^ y) & 255)
                p[i + 2] = UInt8(128 + 120 * sin(Double(x + y) * 0.011))
            }
        }
        return try! Image(width: w, height: h, rgba: p).encoded(as: .jpeg(quality: 92))
    }()

    func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        var se = 0.0
        for i in a.indices { se += (Double(a[i]) - Double(b[i])) * (Double(a[i]) - Double(b[i])) }
        return se == 0 ? 99 : 10 * log10(255 * 255 / (se / Double(a.count)))
    }

    @Test func fastIsTheSameSizeAndMeasurablySofter() throws {
        let full = try Image(decoding: Self.jpeg, options: .default)
        let exact = try ResizingProcessor(width: 180, height: 180).process(.image(full), firstFrameOnly: true)
        let standard = try Image(decoding: Self.jpeg, options: .thumbnail(180))
        var options = DecodingOptions.thumbnail(180)
        options.quality = .fast
        let fast = try Image(decoding: Self.jpeg, options: options)
        #expect(fast.width == standard.width && fast.height == standard.height && fast.width == 180)
        let (s, f) = (psnr(standard.pixels, exact.pixels), psnr(fast.pixels, exact.pixels))
        #expect(s > f && f > 25, "standard \(s) dB, fast \(f) dB from resizing the full decode")
    }

    @Test func theDSLNamesItAndKeysItApart() throws {
        let fast = try ImageOptions.make { make in make.size.lessThanOrEqualTo(200).fast() }
        let standard = try ImageOptions.make { make in make.size.lessThanOrEqualTo(200) }
        #expect(fast.processorIdentifier == "magpie.downsample(fit,200x200,fast)")
        #expect(standard.processorIdentifier == "magpie.downsample(fit,200x200)", "unchanged for existing entries")
        let both = try ImageOptions.make { make in
            make.width.lessThanOrEqualTo(200).fast()
            make.height.lessThanOrEqualTo(100)
        }
        #expect((both.processor as? DownsamplingProcessor)?.quality == .fast)
        let line = #line + 2
        let lineError = optionsError { make in
            make.size.lessThanOrEqualTo(200).fast()
                .fast()
        }
        #expect(
            lineError == .redefined("size.lessThanOrEqualTo.fast", first: here(line), second: here(line + 1)),
            "fast given twice was accepted")
    }

    @Test func theCLITakesFast() throws {
        let dir = try TemporaryDirectory()
        try Data(Self.jpeg).write(to: URL(fileURLWithPath: dir.path("in.jpg")))
        for (name, extra) in [("std.png", [String]()), ("fast.png", ["--fast"])] {
            let r = try CLI.run(["thumb", dir.path("in.jpg"), "-s", "180", "-o", dir.path(name)] + extra)
            #expect(r.status == 0, "\(r.stderr)")
        }
        let (a, b) = (try Image(contentsOfFile: dir.path("std.png")), try Image(contentsOfFile: dir.path("fast.png")))
        #expect(a.width == 180 && b.width == 180 && a.height == b.height && a.pixels != b.pixels)
        let bad = try CLI.run(["fetch", "http://127.0.0.1:9/x.jpg", "--fast"])
        #expect(bad.status != 0 && bad.stderr.contains("--fast needs --size"))
    }
}
