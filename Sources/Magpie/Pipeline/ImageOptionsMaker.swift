/// Where a DSL call was written.
public struct SourceLine: Sendable, Hashable, CustomStringConvertible {
    public var fileID: String
    public var line: Int
    public init(fileID: String, line: Int) {
        self.fileID = fileID
        self.line = line
    }
    public var description: String { "\(fileID):\(line)" }
}

/// Errors in options written with the constraint DSL, thrown when the request starts.
public enum ImageOptionsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The same setting was given twice.
    case redefined(String, first: SourceLine, second: SourceLine)
    /// Two settings contradict each other.
    case contradictory(String, first: SourceLine, second: SourceLine)
    /// A modifier that needs something the constraint lacks (`.crop` on a `lessThanOrEqualTo`).
    case invalid(String, at: SourceLine)

    public var description: String {
        switch self {
        case .redefined(let what, let a, let b): return "\(what) is set twice: at \(a) and again at \(b)"
        case .contradictory(let what, let a, let b): return "\(what): \(a) contradicts \(b)"
        case .invalid(let what, let at): return "\(what) at \(at)"
        }
    }
}

/// Records options written as constraints (Masonry / SnapKit style) and compiles them into one
/// ``ImageOptions``:
///
///     make.size.lessThanOrEqualTo(width: 256, height: 256)        // fit inside, shrink-on-load
///     make.effects.rotate(degrees: 90).then.roundCorners(radius: 12).and.grayscale()
///     make.cache.memory.expires(.seconds(300)).and.disk.expires(.days(7))
///     make.cache.key.ignoringQuery("X-Amz-Signature", "token")
///     make.request.timeout(.seconds(10)).header("Authorization", token)
///     make.retry.times(3).with.backoff(.exponential(.milliseconds(200)))
///     make.forceRefresh()
///
/// Each step returns a builder for chaining; `.with` and `.and` read well and do nothing. Giving
/// the same setting twice, or contradictory ones, is an ``ImageOptionsError`` naming both source
/// lines, thrown by ``build()`` (when the request starts): never last-wins, never a crash.
public final class ImageOptionsMaker {
    enum Relation: String {
        case equal = "equalTo"
        case atMost = "lessThanOrEqualTo"
        case atLeast = "greaterThanOrEqualTo"
    }

    enum Axis: String {
        case size, width, height
    }

    struct SizeConstraint {
        var axis: Axis
        var relation: Relation
        var width: Int?
        var height: Int?
        var crop: CropAnchor?
        var upscale = false
        var filter: DecodingOptions.Filter = .lanczos3
        var quality: DecodingOptions.Quality = .standard
        var sharpening: Sharpening?
        var keepsProfile = false
        var line: SourceLine
        /// Where each modifier (`crop`, `allowingUpscale`, `filter`, `fast`) was given.
        var modifiers: [String: SourceLine] = [:]
    }

    private let base: ImageOptions
    private var settings: [RecordedSetting] = []
    private var errors: [(order: Int, error: ImageOptionsError)] = []
    private var recorded = 0
    var sizes: [SizeConstraint] = []
    private var explicitProcessor: (any ImageProcessor)?
    /// The effects, in the order written (``effects``).
    var recordedEffects: [any ImageProcessor] = []
    /// What ``animation`` asked for.
    struct Animation {
        var maxFrames: Int?
        var encoding: EncodingFormat?
    }
    var recordedAnimation = Animation()

    /// A maker whose unset options come from `base`.
    public init(base: ImageOptions = ImageOptions()) {
        self.base = base
    }

    // MARK: recording

    /// Records a setting of `slot` at `line` (a second one of a slot is an error at compile).
    func record(_ slot: OptionSlot, _ line: SourceLine, _ apply: @escaping (inout ImageOptions) -> Void) {
        settings.append(RecordedSetting(order: recorded, slot: slot, line: line, apply: apply))
        recorded += 1
    }

    private func fail(_ error: ImageOptionsError) {
        errors.append((recorded, error))
        recorded += 1
    }

    func invalid(_ what: String, _ line: SourceLine) { fail(.invalid(what, at: line)) }

    /// Records modifier `name` of size constraint `index`; a second one is an error.
    func modify(_ index: Int, _ name: String, _ line: SourceLine, _ apply: (inout SizeConstraint) -> Void) {
        let c = sizes[index]
        if let first = c.modifiers[name] {
            fail(.redefined("\(c.axis.rawValue).\(c.relation.rawValue).\(name)", first: first, second: line))
            return
        }
        sizes[index].modifiers[name] = line
        apply(&sizes[index])
    }

    // MARK: entry points

    /// The output size, both sides: `equalTo` (exact), `lessThanOrEqualTo` (fit inside),
    /// `greaterThanOrEqualTo` (cover; add `.crop(_:)` to cut to the size).
    public var size: SizeMaker { SizeMaker(maker: self, axis: .size) }
    /// The output width alone (the height follows the aspect ratio).
    public var width: SizeMaker { SizeMaker(maker: self, axis: .width) }
    /// The output height alone (the width follows the aspect ratio).
    public var height: SizeMaker { SizeMaker(maker: self, axis: .height) }
    /// Memory and disk caching (composite: what you set here applies to both layers).
    public var cache: CacheMaker { CacheMaker(maker: self) }
    /// The HTTP request.
    public var request: RequestMaker { RequestMaker(maker: self) }
    /// Retries of failed downloads.
    public var retry: RetryMaker { RetryMaker(maker: self) }
    /// Blur, sharpen, rotate, flip, round corners, colour, padding, background and overlays,
    /// applied after the size in the order written.
    public var effects: EffectsMaker { EffectsMaker(maker: self) }
    /// Animations: how many frames, the first alone, or encoded a frame at a time.
    public var animation: AnimationMaker { AnimationMaker(maker: self) }

    /// Skip the caches and download.
    public func forceRefresh(fileID: String = #fileID, line: Int = #line) {
        record(.readPolicy, SourceLine(fileID: fileID, line: line)) { $0.readPolicy = .refresh }
    }
    /// Never download; a miss fails.
    public func onlyFromCache(fileID: String = #fileID, line: Int = #line) {
        record(.readPolicy, SourceLine(fileID: fileID, line: line)) { $0.readPolicy = .cacheOnly }
    }
    /// Use memory, else download (skip the disk cache).
    public func fromMemoryCacheOrRefresh(fileID: String = #fileID, line: Int = #line) {
        record(.readPolicy, SourceLine(fileID: fileID, line: line)) {
            $0.readPolicy = .memoryThenNetwork
        }
    }
    /// Decode and keep only an animation's first frame (``ImageOptions/onlyLoadFirstFrame``).
    public func onlyLoadFirstFrame(fileID: String = #fileID, line: Int = #line) {
        record(.onlyLoadFirstFrame, SourceLine(fileID: fileID, line: line)) { $0.onlyLoadFirstFrame = true }
    }
    /// Return the bytes the image was made from.
    public func keepsOriginalData(fileID: String = #fileID, line: Int = #line) {
        record(.keepsOriginalData, SourceLine(fileID: fileID, line: line)) { $0.keepsOriginalData = true }
    }
    /// A processor run after the size constraint (or alone).
    public func processor(_ processor: any ImageProcessor, fileID: String = #fileID, line: Int = #line) {
        record(.processor, SourceLine(fileID: fileID, line: line)) { _ in }
        explicitProcessor = processor
    }
    /// Sources tried in order when the first fails.
    public func alternativeSources(_ sources: [Source], fileID: String = #fileID, line: Int = #line) {
        record(.alternativeSources, SourceLine(fileID: fileID, line: line)) { $0.alternativeSources = sources }
    }

    // MARK: compiling

    /// The options, or the first error in what was recorded (see `OptionsCompiler`).
    public func build() throws(ImageOptionsError) -> ImageOptions {
        try OptionsCompiler.compile(
            base: base, settings: settings, sizes: sizes, effects: recordedEffects, processor: explicitProcessor,
            animation: recordedAnimation, recordingErrors: errors)
    }
}

extension ImageOptions {
    /// Options written with the constraint DSL, from the defaults (a preset).
    public static func make(_ configure: (ImageOptionsMaker) -> Void) throws(ImageOptionsError) -> ImageOptions {
        let maker = ImageOptionsMaker()
        configure(maker)
        return try maker.build()
    }

    /// These options with some settings replaced: a setting written here replaces this value's,
    /// and may be given once.
    public func updated(_ configure: (ImageOptionsMaker) -> Void) throws(ImageOptionsError) -> ImageOptions {
        let maker = ImageOptionsMaker(base: self)
        configure(maker)
        return try maker.build()
    }
}
