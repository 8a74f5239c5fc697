/// A cache layer the DSL names.
enum CacheLayer: String, Sendable {
    case memory, disk
}

/// Every setting the DSL records, each at most once: redefinitions are found by slot, and the
/// contradiction table below lists pairs of slots. The description is the name errors print.
enum OptionSlot: Hashable, Sendable, CustomStringConvertible {
    case readPolicy, onlyLoadFirstFrame, keepsOriginalData
    case processor, alternativeSources
    case waitForCache, original, target, serializer, memoryOnly, httpHeaders, revalidatingAlways, servingStale
    case heuristicFreshness
    case expires(CacheLayer), extendsOnAccess(CacheLayer)
    case keyIgnoringQuery, keyEqualTo
    case timeout, header(String), modifier, redirects, priority, downloader, ignoringFailedURLMemory
    case retryTimes, retryBackoff, retryJitter
    case animationMaxFrames, animationEncoding

    var description: String {
        switch self {
        case .readPolicy: return "readPolicy"
        case .onlyLoadFirstFrame: return "onlyLoadFirstFrame"
        case .keepsOriginalData: return "keepsOriginalData"
        case .processor: return "processor"
        case .alternativeSources: return "alternativeSources"
        case .waitForCache: return "cache.waitForCache"
        case .original: return "cache.original"
        case .target: return "cache.target"
        case .serializer: return "cache.serializer"
        case .memoryOnly: return "cache.memory.only"
        case .httpHeaders: return "cache.respectingHTTPHeaders"
        case .revalidatingAlways: return "cache.revalidatingAlways"
        case .servingStale: return "cache.servingStale"
        case .heuristicFreshness: return "cache.heuristicFreshness"
        case .expires(let layer): return "cache.\(layer.rawValue).expires"
        case .extendsOnAccess(let layer): return "cache.\(layer.rawValue).extendsOnAccess"
        case .keyIgnoringQuery: return "cache.key.ignoringQuery"
        case .keyEqualTo: return "cache.key.equalTo"
        case .timeout: return "request.timeout"
        case .header(let name): return "request.header(\(name))"
        case .modifier: return "request.modifier"
        case .redirects: return "request.redirects"
        case .priority: return "request.priority"
        case .downloader: return "request.downloader"
        case .ignoringFailedURLMemory: return "request.ignoringFailedURLMemory"
        case .retryTimes: return "retry.times"
        case .retryBackoff: return "retry.backoff"
        case .retryJitter: return "retry.jitter"
        case .animationMaxFrames: return "animation.maxFrames"
        case .animationEncoding: return "animation.encoded"
        }
    }

    /// Settings that cannot stand together, and how the error names them.
    static let contradictions: [(OptionSlot, OptionSlot, String)] = [
        (.memoryOnly, .expires(.disk), "a memory-only cache with a disk expiry"),
        (.memoryOnly, .original, "a memory-only cache that keeps originals on disk"),
        (.memoryOnly, .revalidatingAlways, "a memory-only cache that revalidates disk entries"),
        (.onlyLoadFirstFrame, .animationEncoding, "the first frame alone, and the animation encoded"),
        (.onlyLoadFirstFrame, .animationMaxFrames, "the first frame alone, and a number of frames"),
    ]
}

/// One setting as the DSL recorded it: which slot, where, and what it does to the options.
struct RecordedSetting {
    /// Its place among everything recorded (settings and errors), for the order of errors.
    var order: Int
    var slot: OptionSlot
    var line: SourceLine
    var apply: (inout ImageOptions) -> Void
}

/// Compiles recorded settings into options: a pure function of what was recorded, so it can be
/// tested without a maker. The first error wins: size constraints, then what went wrong while
/// recording and redefinitions (in the order they were written), then contradictions.
enum OptionsCompiler {
    static func compile(
        base: ImageOptions, settings: [RecordedSetting], sizes: [ImageOptionsMaker.SizeConstraint],
        effects: [any ImageProcessor] = [], processor: (any ImageProcessor)?,
        animation: ImageOptionsMaker.Animation = .init(),
        recordingErrors: [(order: Int, error: ImageOptionsError)]
    ) throws(ImageOptionsError) -> ImageOptions {
        var options = base
        var firstAt: [OptionSlot: SourceLine] = [:]
        var errors = recordingErrors
        for setting in settings {
            if let first = firstAt[setting.slot] {
                errors.append((setting.order, .redefined(setting.slot.description, first: first, second: setting.line)))
                continue
            }
            firstAt[setting.slot] = setting.line
            setting.apply(&options)
        }
        for (a, b, what) in OptionSlot.contradictions {
            if let first = firstAt[a], let second = firstAt[b] {
                let (x, y) = first.line <= second.line ? (first, second) : (second, first)
                errors.append((Int.max, .contradictory(what, first: x, second: y)))
            }
        }
        // The size first (shrink-on-load takes the bytes), then the effects in the order written
        // (a rotation right after the size is one decode), then the explicit processor.
        let chain =
            [try ImageOptionsMaker.sizeProcessor(sizes)].compactMap { $0 } + effects + [processor].compactMap { $0 }
        if let first = chain.first {
            options.processor = chain.dropFirst().reduce(first) { CompositeProcessor($0, $1) }
        }
        // Animations last: the whole chain runs on each frame, decoded one at a time.
        if animation.encoding != nil || animation.maxFrames != nil {
            let inner = options.processor
            if let encoding = animation.encoding {
                options.processor = AnimationProcessor(inner, format: encoding, maxFrames: animation.maxFrames ?? .max)
            } else if let maxFrames = animation.maxFrames {
                options.processor = FrameLimitProcessor(inner, maxFrames: maxFrames)
            }
        }
        if let first = errors.min(by: { $0.order < $1.order }) { throw first.error }
        return options
    }
}
