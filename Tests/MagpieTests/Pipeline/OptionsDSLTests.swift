import Foundation
import MagpieTestSupport
import Testing

@testable import Magpie

@Suite struct OptionsDSLTests {
    @Test func sizeConstraintsCompileToProcessors() throws {
        let fit = try ImageOptions.make { make in make.size.lessThanOrEqualTo(width: 256, height: 256) }
        #expect(fit.processorIdentifier == "magpie.downsample(fit,256x256)")
        let exact = try ImageOptions.make { make in make.size.equalTo(width: 100, height: 50) }
        #expect(exact.processorIdentifier == "magpie.downsample(exact,100x50,up)")
        let fill = try ImageOptions.make { make in make.size.greaterThanOrEqualTo(width: 64, height: 64).crop(.center) }
        #expect(fill.processorIdentifier == "magpie.downsample(fill,64x64)")
        let cover = try ImageOptions.make { make in make.size.greaterThanOrEqualTo(width: 64, height: 64) }
        #expect(cover.processorIdentifier == "magpie.downsample(cover,64x64)")
        let top = try ImageOptions.make { make in
            make.size.greaterThanOrEqualTo(width: 64, height: 32).crop(.top).allowingUpscale()
        }
        #expect(top.processorIdentifier == "magpie.downsample(cover,64x32,up)|>magpie.crop(64x32,0.5,0.0)")
        let width = try ImageOptions.make { make in make.width.equalTo(300).with.filter(.mitchell) }
        #expect(width.processorIdentifier == "magpie.downsample(fit,300x1073741824,up,mitchell)")
        let both = try ImageOptions.make { make in
            make.width.lessThanOrEqualTo(300)
            make.height.lessThanOrEqualTo(200)
        }
        #expect(both.processorIdentifier == "magpie.downsample(fit,300x200)")
        let chained = try ImageOptions.make { make in
            make.size.lessThanOrEqualTo(128)
            make.processor(CroppingProcessor(width: 10, height: 10))
            make.onlyLoadFirstFrame()
        }
        #expect(
            chained.processorIdentifier
                == "magpie.downsample(fit,128x128)|>magpie.crop(10x10,0.5,0.5)|>magpie.first-frame")
    }

    @Test func theIssueExampleReadsAsWritten() throws {
        let token = "Bearer t"
        let options = try ImageOptions.make { make in
            make.size.lessThanOrEqualTo(width: 256, height: 256)
            make.cache.memory.expires(.seconds(300)).and.disk.expires(.days(7))
            make.cache.key.ignoringQuery("X-Amz-Signature", "token")
            make.request.timeout(.seconds(10)).header("Authorization", token)
            make.retry.times(3).with.backoff(.exponential(.milliseconds(200)))
            make.forceRefresh()
        }
        #expect(options.cache.memory.expiration == .seconds(300) && options.cache.disk.expiration == .days(7))
        #expect(options.cache.ignoredQueryItems == ["X-Amz-Signature", "token"])
        #expect(
            options.request.timeout == .seconds(10)
                && options.request.headers == [HTTPHeaderField("Authorization", token)])
        #expect(
            options.retry?.maxRetries == 3 && options.retry?.backoff == .exponential(.milliseconds(200))
        )
        #expect(options.readPolicy == .refresh)
        #expect(options.debugDescription.contains("cache key: <source key>@magpie.downsample(fit,256x256)"))
    }

    @Test func redefinitionsAndContradictionsNameBothLines() {
        let file = #fileID
        let line = #line + 2
        let twice = error { make in
            make.size.lessThanOrEqualTo(100)
            make.size.lessThanOrEqualTo(200)
        }
        #expect(
            twice
                == .redefined(
                    "size.lessThanOrEqualTo", first: SourceLine(fileID: file, line: line),
                    second: SourceLine(fileID: file, line: line + 1)))
        let contradictory = error { make in
            make.size.lessThanOrEqualTo(width: 10, height: 10)
            make.size.equalTo(width: 10, height: 10)
        }
        guard case .contradictory(let what, let a, let b)? = contradictory else {
            Issue.record("expected a contradiction, got \(String(describing: contradictory))")
            return
        }
        #expect(what == "size.lessThanOrEqualTo and size.equalTo" && b.line == a.line + 1 && a.fileID == file)
        #expect(String(describing: contradictory!).contains("\(file):\(a.line)"))

        let header = error { make in make.request.header("X-A", "1").header("x-a", "2") }
        if case .redefined(let what, _, _)? = header {
            #expect(what == "request.header(x-a)")
        } else {
            Issue.record("header")
        }
        let composite = error { make in
            make.cache.expires(.days(1))
            make.cache.disk.expires(.days(2))
        }
        if case .redefined(let what, _, _)? = composite {
            #expect(what == "cache.disk.expires")
        } else {
            Issue.record("composite")
        }
        let refresh = error { make in
            make.forceRefresh()
            make.onlyFromCache()
        }
        // One read policy: a second is a redefinition, a contradiction that cannot be written.
        if case .redefined("readPolicy", _, _)? = refresh {} else { Issue.record("forceRefresh with onlyFromCache") }
        let mixed = error { make in
            make.size.lessThanOrEqualTo(100)
            make.width.equalTo(50)
        }
        if case .contradictory? = mixed {} else { Issue.record("size with width") }
        let memoryOnly = error { make in make.cache.memory.only().and.disk.expires(.days(1)) }
        if case .contradictory? = memoryOnly {} else { Issue.record("memory only with disk expiry") }
        let crop = error { make in make.size.lessThanOrEqualTo(100).crop() }
        if case .invalid? = crop {} else { Issue.record("crop on a fit") }
    }

    /// `.crop`, `.filter` and `.allowingUpscale` are settings like any other: given twice (on one
    /// size, or on the width and the height that make one size) they name both lines.
    @Test func sizeModifiersGivenTwiceNameBothLines() {
        let file = #fileID
        let line = #line + 2
        let crops = error { make in
            make.size.greaterThanOrEqualTo(width: 64, height: 64).crop(.top)
                .crop(.left)
        }
        #expect(
            crops
                == .redefined(
                    "size.greaterThanOrEqualTo.crop", first: SourceLine(fileID: file, line: line),
                    second: SourceLine(fileID: file, line: line + 1)))
        let filters = error { make in make.size.lessThanOrEqualTo(64).filter(.mitchell).filter(.bilinear) }
        if case .redefined(let what, let a, let b)? = filters {
            #expect(what == "size.lessThanOrEqualTo.filter" && a == b)
        } else {
            Issue.record("filter twice: \(String(describing: filters))")
        }
        let upscale = error { make in make.width.equalTo(10).allowingUpscale().allowingUpscale() }
        if case .redefined(let what, _, _)? = upscale {
            #expect(what == "width.equalTo.allowingUpscale")
        } else {
            Issue.record("allowingUpscale twice: \(String(describing: upscale))")
        }
        let split = error { make in
            make.width.lessThanOrEqualTo(100).filter(.mitchell)
            make.height.lessThanOrEqualTo(100).filter(.bilinear)
        }
        if case .redefined(let what, let a, let b)? = split {
            #expect(what == "size.filter (on width and height)" && b.line == a.line + 1)
        } else {
            Issue.record("filter on width and height: \(String(describing: split))")
        }
        // Once each is fine, and the height's filter counts when only it has one.
        let heightFilter = try? ImageOptions.make { make in
            make.width.lessThanOrEqualTo(100)
            make.height.lessThanOrEqualTo(80).filter(.bilinear).crop(.top)
        }
        #expect(heightFilter == nil, "crop on a lessThanOrEqualTo is still invalid")
        let once = try? ImageOptions.make { make in
            make.width.lessThanOrEqualTo(100)
            make.height.lessThanOrEqualTo(80).filter(.bilinear)
        }
        #expect(once?.processorIdentifier == "magpie.downsample(fit,100x80,bilinear)")
    }

    /// The compile step alone, from recorded settings: no maker, no closures written by hand in
    /// DSL form.
    @Test func theCompileStepIsAPureFunctionOfWhatWasRecorded() throws {
        let a = SourceLine(fileID: "x", line: 1)
        let b = SourceLine(fileID: "x", line: 2)
        let ok = try OptionsCompiler.compile(
            base: ImageOptions(),
            settings: [
                RecordedSetting(order: 0, slot: .expires(.disk), line: a) { $0.cache.disk.expiration = .days(1) },
                RecordedSetting(order: 1, slot: .expires(.memory), line: b) {
                    $0.cache.memory.expiration = .seconds(5)
                },
            ], sizes: [], processor: nil, recordingErrors: [])
        #expect(ok.cache.disk.expiration == .days(1) && ok.cache.memory.expiration == .seconds(5))
        #expect(throws: ImageOptionsError.redefined("request.header(x-a)", first: a, second: b)) {
            try OptionsCompiler.compile(
                base: ImageOptions(),
                settings: [
                    RecordedSetting(order: 0, slot: .header("x-a"), line: a) { _ in },
                    RecordedSetting(order: 1, slot: .header("x-a"), line: b) { _ in },
                ], sizes: [], processor: nil, recordingErrors: [])
        }
        // Every pair in the contradiction table is reported, named as the table says.
        for (first, second, what) in OptionSlot.contradictions {
            #expect(throws: ImageOptionsError.contradictory(what, first: a, second: b)) {
                try OptionsCompiler.compile(
                    base: ImageOptions(),
                    settings: [
                        RecordedSetting(order: 0, slot: first, line: a) { _ in },
                        RecordedSetting(order: 1, slot: second, line: b) { _ in },
                    ], sizes: [], processor: nil, recordingErrors: [])
            }
        }
    }

    @Test func transportOptionsLeaveTheCacheKeyAlone() throws {
        let plain = try ImageOptions.make { make in make.size.lessThanOrEqualTo(64) }
        let transported = try ImageOptions.make { make in
            make.size.lessThanOrEqualTo(64)
            make.request.timeout(.seconds(1)).priority(.high).header("X-Trace", "1")
            make.retry.times(2)
        }
        #expect(plain.processorIdentifier == transported.processorIdentifier)
        #expect(plain != transported)
        let other = try ImageOptions.make { make in make.size.lessThanOrEqualTo(65) }
        #expect(plain.processorIdentifier != other.processorIdentifier)
        #expect(plain == (try ImageOptions.make { make in make.size.lessThanOrEqualTo(64) }), "Hashable by value")
    }

    @Test func presetsUpdateAndRemake() throws {
        let thumb = try ImageOptions.make { make in
            make.size.lessThanOrEqualTo(256)
            make.cache.disk.expires(.days(30))
        }
        let small = try thumb.updated { make in make.size.lessThanOrEqualTo(64) }
        #expect(small.processorIdentifier == "magpie.downsample(fit,64x64)" && small.cache.disk.expiration == .days(30))
        let kept = try thumb.updated { make in make.request.timeout(.seconds(3)) }
        #expect(kept.processorIdentifier == thumb.processorIdentifier && kept.request.timeout == .seconds(3))
        let fresh = try ImageOptions.make { make in make.forceRefresh() }
        #expect(fresh.processorIdentifier == "" && fresh.cache.disk.expiration == nil && fresh.readPolicy == .refresh)
        #expect(throws: ImageOptionsError.self) {
            try thumb.updated { make in
                make.request.timeout(.seconds(1))
                make.request.timeout(.seconds(2))
            }
        }
    }

    @Test func errorsSurfaceWhenTheRequestStarts() async throws {
        let h = try PipelineHarness()
        await #expect(throws: ImageOptionsError.self) {
            try await h.manager.image(from: URL(string: "http://127.0.0.1:9/never.jpg")!) { make in
                make.onlyFromCache()
                make.forceRefresh()
            }
        }
        #expect(h.manager.downloader.statistics.downloads == 0)
        try await h.finish()
    }
}

@Suite struct ProcessorTests {
    let image = try! Image(width: 120, height: 80, rgba: Fixture.gradient(width: 120, height: 80))

    @Test func contentModesOnDecodedImages() throws {
        let fit = try ResizingProcessor(width: 60, height: 60).process(.image(image), firstFrameOnly: false)
        #expect(fit.width == 60 && fit.height == 40)
        let fill = try ResizingProcessor(width: 60, height: 60, mode: .fill).process(
            .image(image), firstFrameOnly: false)
        #expect(fill.width == 60 && fill.height == 60)
        let cover = try ResizingProcessor(width: 60, height: 60, mode: .cover).process(
            .image(image), firstFrameOnly: false)
        #expect(cover.width == 90 && cover.height == 60)
        let exact = try ResizingProcessor(width: 30, height: 70, mode: .exact).process(
            .image(image), firstFrameOnly: false)
        #expect(exact.width == 30 && exact.height == 70)
        let noUpscale = try ResizingProcessor(width: 500, height: 500).process(.image(image), firstFrameOnly: false)
        #expect(noUpscale.width == 120 && noUpscale.height == 80)
        let up = try ResizingProcessor(width: 240, height: 240, allowsUpscaling: true).process(
            .image(image), firstFrameOnly: false)
        #expect(up.width == 240 && up.height == 160)
    }
}

/// The error the DSL reports for `configure`, or `nil` when it builds.
private func error(_ configure: (ImageOptionsMaker) -> Void) -> ImageOptionsError? {
    do {
        _ = try ImageOptions.make(configure)
        return nil
    } catch {
        return error
    }
}
