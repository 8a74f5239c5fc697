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
        var line: SourceLine
    }

    private let base: ImageOptions
    private var options: ImageOptions
    private var setAt: [String: SourceLine] = [:]
    private var errors: [ImageOptionsError] = []
    var sizes: [SizeConstraint] = []
    private var explicitProcessor: (any ImageProcessor)?

    /// A maker whose unset options come from `base`.
    public init(base: ImageOptions = ImageOptions()) {
        self.base = base
        self.options = base
    }

    // MARK: recording

    /// Records that `slot` was set at `line`; a second setting is an error.
    func record(_ slot: String, _ line: SourceLine, _ apply: (inout ImageOptions) -> Void) {
        if let first = setAt[slot] {
            errors.append(.redefined(slot, first: first, second: line))
            return
        }
        setAt[slot] = line
        apply(&options)
    }

    func contradiction(_ a: String, _ b: String, _ what: String) {
        if let first = setAt[a], let second = setAt[b] {
            let (x, y) = first.line <= second.line ? (first, second) : (second, first)
            errors.append(.contradictory(what, first: x, second: y))
        }
    }

    func invalid(_ what: String, _ line: SourceLine) { errors.append(.invalid(what, at: line)) }

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

    /// Skip the caches and download.
    public func forceRefresh(fileID: String = #fileID, line: Int = #line) {
        record("forceRefresh", SourceLine(fileID: fileID, line: line)) { $0.forceRefresh = true }
    }
    /// Never download; a miss fails.
    public func onlyFromCache(fileID: String = #fileID, line: Int = #line) {
        record("onlyFromCache", SourceLine(fileID: fileID, line: line)) { $0.onlyFromCache = true }
    }
    /// Use memory, else download (skip the disk cache).
    public func fromMemoryCacheOrRefresh(fileID: String = #fileID, line: Int = #line) {
        record("fromMemoryCacheOrRefresh", SourceLine(fileID: fileID, line: line)) {
            $0.fromMemoryCacheOrRefresh = true
        }
    }
    /// Decode and keep only an animation's first frame.
    public func firstFrameOnly(fileID: String = #fileID, line: Int = #line) {
        record("firstFrameOnly", SourceLine(fileID: fileID, line: line)) { $0.onlyLoadFirstFrame = true }
    }
    /// Return the bytes the image was made from.
    public func keepsOriginalData(fileID: String = #fileID, line: Int = #line) {
        record("keepsOriginalData", SourceLine(fileID: fileID, line: line)) { $0.keepsOriginalData = true }
    }
    /// A processor run after the size constraint (or alone).
    public func processor(_ processor: any ImageProcessor, fileID: String = #fileID, line: Int = #line) {
        record("processor", SourceLine(fileID: fileID, line: line)) { _ in }
        explicitProcessor = processor
    }
    /// Sources tried in order when the first fails.
    public func alternativeSources(_ sources: [Source], fileID: String = #fileID, line: Int = #line) {
        record("alternativeSources", SourceLine(fileID: fileID, line: line)) { $0.alternativeSources = sources }
    }

    // MARK: compiling

    /// The options, or the first error in what was recorded.
    public func build() throws(ImageOptionsError) -> ImageOptions {
        contradiction("forceRefresh", "onlyFromCache", "forceRefresh and onlyFromCache")
        contradiction("fromMemoryCacheOrRefresh", "onlyFromCache", "fromMemoryCacheOrRefresh and onlyFromCache")
        contradiction("cache.memory.only", "cache.disk.expires", "a memory-only cache with a disk expiry")
        contradiction("cache.memory.only", "cache.original", "a memory-only cache that keeps originals on disk")
        var result = options
        let sized = try sizeProcessor()
        switch (sized, explicitProcessor) {
        case (let s?, let p?): result.processor = CompositeProcessor(s, p)
        case (let s?, nil): result.processor = s
        case (nil, let p?): result.processor = p
        case (nil, nil): break
        }
        if let first = errors.first { throw first }
        return result
    }

    /// The processor the size constraints describe (`nil` when there are none).
    private func sizeProcessor() throws(ImageOptionsError) -> (any ImageProcessor)? {
        guard let first = sizes.first else { return nil }
        if let whole = sizes.first(where: { $0.axis == .size }), let other = sizes.first(where: { $0.axis != .size }) {
            let (a, b) = whole.line.line <= other.line.line ? (whole, other) : (other, whole)
            throw .contradictory("size and \(other.axis.rawValue) constraints", first: a.line, second: b.line)
        }
        for axis in [Axis.size, .width, .height] {
            let same = sizes.filter { $0.axis == axis }
            if same.count > 1 {
                let what =
                    same[0].relation == same[1].relation
                    ? "\(axis.rawValue).\(same[1].relation.rawValue)"
                    : "\(axis.rawValue).\(same[0].relation.rawValue) and \(axis.rawValue).\(same[1].relation.rawValue)"
                if same[0].relation == same[1].relation {
                    throw .redefined(what, first: same[0].line, second: same[1].line)
                }
                throw .contradictory(what, first: same[0].line, second: same[1].line)
            }
        }
        var c = first
        if sizes.count == 2 {
            // A width and a height constraint: they must agree on the relation.
            let (w, h) = sizes[0].axis == .width ? (sizes[0], sizes[1]) : (sizes[1], sizes[0])
            guard w.relation == h.relation else {
                let (a, b) = w.line.line <= h.line.line ? (w, h) : (h, w)
                throw .contradictory(
                    "width.\(w.relation.rawValue) and height.\(h.relation.rawValue)", first: a.line, second: b.line)
            }
            c = SizeConstraint(
                axis: .size, relation: w.relation, width: w.width, height: h.height, crop: w.crop ?? h.crop,
                upscale: w.upscale || h.upscale, filter: w.filter, line: w.line)
        }
        let unbounded = 1 << 30
        switch c.relation {
        case .atMost:
            if c.crop != nil { throw .invalid(".crop needs greaterThanOrEqualTo or equalTo", at: c.line) }
            return DownsamplingProcessor(
                width: c.width ?? unbounded, height: c.height ?? unbounded, mode: .fit, allowsUpscaling: c.upscale,
                filter: c.filter)
        case .atLeast:
            if let anchor = c.crop {
                guard c.width != nil && c.height != nil else {
                    throw .invalid(".crop needs both a width and a height", at: c.line)
                }
                if anchor == .center {
                    return DownsamplingProcessor(
                        width: c.width!, height: c.height!, mode: .fill, allowsUpscaling: c.upscale, filter: c.filter)
                }
                return DownsamplingProcessor(
                    width: c.width!, height: c.height!, mode: .cover, allowsUpscaling: c.upscale, filter: c.filter)
                    |> CroppingProcessor(width: c.width!, height: c.height!, anchor: anchor)
            }
            return DownsamplingProcessor(
                width: c.width ?? 1, height: c.height ?? 1, mode: .cover, allowsUpscaling: c.upscale, filter: c.filter)
        case .equal:
            if c.width != nil && c.height != nil {
                if let anchor = c.crop {
                    return DownsamplingProcessor(
                        width: c.width!, height: c.height!, mode: .cover, allowsUpscaling: true, filter: c.filter)
                        |> CroppingProcessor(width: c.width!, height: c.height!, anchor: anchor)
                }
                return DownsamplingProcessor(
                    width: c.width!, height: c.height!, mode: .exact, allowsUpscaling: true, filter: c.filter)
            }
            if c.crop != nil { throw .invalid(".crop needs both a width and a height", at: c.line) }
            // One side exact, the other following the aspect ratio.
            return DownsamplingProcessor(
                width: c.width ?? unbounded, height: c.height ?? unbounded, mode: .fit, allowsUpscaling: true,
                filter: c.filter)
        }
    }

    // MARK: - builders

    /// `size`, `width` or `height`: pick a relation.
    public struct SizeMaker {
        let maker: ImageOptionsMaker
        let axis: Axis

        @discardableResult
        public func equalTo(width: Int, height: Int, fileID: String = #fileID, line: Int = #line) -> SizeModifiers {
            add(.equal, width, height, fileID, line)
        }
        @discardableResult
        public func lessThanOrEqualTo(width: Int, height: Int, fileID: String = #fileID, line: Int = #line)
            -> SizeModifiers
        {
            add(.atMost, width, height, fileID, line)
        }
        @discardableResult
        public func greaterThanOrEqualTo(width: Int, height: Int, fileID: String = #fileID, line: Int = #line)
            -> SizeModifiers
        {
            add(.atLeast, width, height, fileID, line)
        }
        /// One number: both sides for `size`, the one side for `width` / `height`.
        @discardableResult
        public func equalTo(_ value: Int, fileID: String = #fileID, line: Int = #line) -> SizeModifiers {
            add(.equal, value, value, fileID, line)
        }
        @discardableResult
        public func lessThanOrEqualTo(_ value: Int, fileID: String = #fileID, line: Int = #line) -> SizeModifiers {
            add(.atMost, value, value, fileID, line)
        }
        @discardableResult
        public func greaterThanOrEqualTo(_ value: Int, fileID: String = #fileID, line: Int = #line) -> SizeModifiers {
            add(.atLeast, value, value, fileID, line)
        }

        private func add(_ r: Relation, _ w: Int, _ h: Int, _ fileID: String, _ line: Int) -> SizeModifiers {
            let at = SourceLine(fileID: fileID, line: line)
            if w <= 0 || h <= 0 { maker.invalid("\(axis.rawValue).\(r.rawValue) needs positive sizes", at) }
            let c = SizeConstraint(
                axis: axis, relation: r, width: axis == .height ? nil : max(1, w),
                height: axis == .width ? nil : max(1, h), line: at)
            maker.sizes.append(c)
            return SizeModifiers(maker: maker, index: maker.sizes.count - 1)
        }
    }

    /// Modifiers of the size constraint just written.
    public struct SizeModifiers {
        let maker: ImageOptionsMaker
        let index: Int

        /// Cut to exactly the size, keeping the window at `anchor` (for `greaterThanOrEqualTo`
        /// and `equalTo`, which otherwise scale without cropping or stretch).
        @discardableResult
        public func crop(_ anchor: CropAnchor = .center) -> SizeModifiers {
            maker.sizes[index].crop = anchor
            return self
        }
        /// Let the constraint enlarge images smaller than it.
        @discardableResult
        public func allowingUpscale() -> SizeModifiers {
            maker.sizes[index].upscale = true
            return self
        }
        /// The resampling filter (Lanczos3 by default).
        @discardableResult
        public func filter(_ filter: DecodingOptions.Filter) -> SizeModifiers {
            maker.sizes[index].filter = filter
            return self
        }
        public var with: SizeModifiers { self }
        public var and: SizeModifiers { self }
    }

    /// `cache`: memory and disk together, or one layer through `memory` / `disk`.
    public struct CacheMaker {
        let maker: ImageOptionsMaker

        public var memory: CacheLayerMaker { CacheLayerMaker(maker: maker, layer: "memory") }
        public var disk: CacheLayerMaker { CacheLayerMaker(maker: maker, layer: "disk") }
        public var key: CacheKeyMaker { CacheKeyMaker(maker: maker) }

        /// Both layers expire after `expiration`.
        @discardableResult
        public func expires(_ expiration: StorageExpiration, fileID: String = #fileID, line: Int = #line) -> CacheMaker
        {
            memory.expires(expiration, fileID: fileID, line: line)
            disk.expires(expiration, fileID: fileID, line: line)
            return self
        }
        /// How reads extend expiry, both layers.
        @discardableResult
        public func extendsOnAccess(_ extending: ExpirationExtending, fileID: String = #fileID, line: Int = #line)
            -> CacheMaker
        {
            memory.extendsOnAccess(extending, fileID: fileID, line: line)
            disk.extendsOnAccess(extending, fileID: fileID, line: line)
            return self
        }
        /// Return only after the disk write finished.
        @discardableResult
        public func waitsForDisk(fileID: String = #fileID, line: Int = #line) -> CacheMaker {
            maker.record("cache.waitsForDisk", SourceLine(fileID: fileID, line: line)) { $0.waitForCache = true }
            return self
        }
        /// Also keep the downloaded bytes (under the plain key), in `cache` or the target cache.
        @discardableResult
        public func original(in cache: ImageCache? = nil, fileID: String = #fileID, line: Int = #line) -> CacheMaker {
            maker.record("cache.original", SourceLine(fileID: fileID, line: line)) {
                $0.cacheOriginalImage = true
                $0.originalCache = cache
            }
            return self
        }
        /// Cache in `cache` instead of the manager's.
        @discardableResult
        public func target(_ cache: ImageCache, fileID: String = #fileID, line: Int = #line) -> CacheMaker {
            maker.record("cache.target", SourceLine(fileID: fileID, line: line)) { $0.targetCache = cache }
            return self
        }
        @discardableResult
        public func serializer(_ serializer: any CacheSerializer, fileID: String = #fileID, line: Int = #line)
            -> CacheMaker
        {
            maker.record("cache.serializer", SourceLine(fileID: fileID, line: line)) { $0.cacheSerializer = serializer }
            return self
        }
        public var and: CacheMaker { self }
        public var with: CacheMaker { self }
    }

    /// `cache.memory` or `cache.disk`.
    public struct CacheLayerMaker {
        let maker: ImageOptionsMaker
        let layer: String

        @discardableResult
        public func expires(_ expiration: StorageExpiration, fileID: String = #fileID, line: Int = #line)
            -> CacheLayerMaker
        {
            maker.record("cache.\(layer).expires", SourceLine(fileID: fileID, line: line)) {
                if layer == "memory" {
                    $0.memoryCacheExpiration = expiration
                } else {
                    $0.diskCacheExpiration = expiration
                }
            }
            return self
        }
        @discardableResult
        public func extendsOnAccess(_ extending: ExpirationExtending, fileID: String = #fileID, line: Int = #line)
            -> CacheLayerMaker
        {
            maker.record("cache.\(layer).extendsOnAccess", SourceLine(fileID: fileID, line: line)) {
                if layer == "memory" {
                    $0.memoryCacheAccessExtendingExpiration = extending
                } else {
                    $0.diskCacheAccessExtendingExpiration = extending
                }
            }
            return self
        }
        /// `cache.memory.only()`: nothing goes to disk.
        @discardableResult
        public func only(fileID: String = #fileID, line: Int = #line) -> CacheLayerMaker {
            let at = SourceLine(fileID: fileID, line: line)
            if layer == "memory" {
                maker.record("cache.memory.only", at) { $0.cacheMemoryOnly = true }
            } else {
                maker.invalid(
                    "cache.disk.only is not an option (use cache.memory.only or fromMemoryCacheOrRefresh)", at)
            }
            return self
        }
        /// Back to the composite, for the other layer: `.and.disk…`.
        public var and: CacheMaker { CacheMaker(maker: maker) }
        public var with: CacheLayerMaker { self }
    }

    /// `cache.key`: how the cache key is made.
    public struct CacheKeyMaker {
        let maker: ImageOptionsMaker

        /// Drop these query items from the URL's key (signatures, tokens).
        @discardableResult
        public func ignoringQuery(_ names: String..., fileID: String = #fileID, line: Int = #line) -> CacheKeyMaker {
            maker.record("cache.key.ignoringQuery", SourceLine(fileID: fileID, line: line)) {
                $0.ignoredQueryItems.formUnion(names)
            }
            return self
        }
        /// Cache under exactly this key.
        @discardableResult
        public func equalTo(_ key: String, fileID: String = #fileID, line: Int = #line) -> CacheKeyMaker {
            maker.record("cache.key.equalTo", SourceLine(fileID: fileID, line: line)) { $0.cacheKey = key }
            return self
        }
        public var and: CacheKeyMaker { self }
    }

    /// `request`: transport settings (they never change the cache key).
    public struct RequestMaker {
        let maker: ImageOptionsMaker

        @discardableResult
        public func timeout(_ timeout: Duration, fileID: String = #fileID, line: Int = #line) -> RequestMaker {
            maker.record("request.timeout", SourceLine(fileID: fileID, line: line)) { $0.timeout = timeout }
            return self
        }
        /// A header field; the same name twice is an error.
        @discardableResult
        public func header(_ name: String, _ value: String, fileID: String = #fileID, line: Int = #line)
            -> RequestMaker
        {
            maker.record("request.header(\(name.lowercased()))", SourceLine(fileID: fileID, line: line)) {
                $0.headers.set(name, value)
            }
            return self
        }
        /// Changes the request before it goes out (sign it); may suspend and may fail.
        @discardableResult
        public func modifier(
            fileID: String = #fileID, line: Int = #line,
            _ modify: @escaping @Sendable (DataRequest) async throws -> DataRequest
        ) -> RequestMaker {
            maker.record("request.modifier", SourceLine(fileID: fileID, line: line)) {
                $0.requestModifier = RequestModifier(modify)
            }
            return self
        }
        /// Decides each redirect (return `nil` to refuse it).
        @discardableResult
        public func redirects(
            fileID: String = #fileID, line: Int = #line,
            _ decide: @escaping @Sendable (DataResponse, DataRequest) async -> DataRequest?
        ) -> RequestMaker {
            maker.record("request.redirects", SourceLine(fileID: fileID, line: line)) {
                $0.redirectHandler = RedirectHandler(decide)
            }
            return self
        }
        @discardableResult
        public func priority(_ priority: TaskPriority, fileID: String = #fileID, line: Int = #line) -> RequestMaker {
            maker.record("request.priority", SourceLine(fileID: fileID, line: line)) { $0.priority = priority }
            return self
        }
        /// Use this downloader instead of the manager's.
        @discardableResult
        public func downloader(_ downloader: ImageDownloader, fileID: String = #fileID, line: Int = #line)
            -> RequestMaker
        {
            maker.record("request.downloader", SourceLine(fileID: fileID, line: line)) { $0.downloader = downloader }
            return self
        }
        /// Download even when the URL failed recently.
        @discardableResult
        public func ignoringFailedURLMemory(fileID: String = #fileID, line: Int = #line) -> RequestMaker {
            maker.record("request.ignoringFailedURLMemory", SourceLine(fileID: fileID, line: line)) {
                $0.ignoresFailedURLMemory = true
            }
            return self
        }
        public var and: RequestMaker { self }
        public var with: RequestMaker { self }
    }

    /// `retry`: `make.retry.times(3).with.backoff(.exponential(.milliseconds(200)))`.
    public struct RetryMaker {
        let maker: ImageOptionsMaker

        @discardableResult
        public func times(_ count: Int, fileID: String = #fileID, line: Int = #line) -> RetryMaker {
            maker.record("retry.times", SourceLine(fileID: fileID, line: line)) {
                var s = $0.retryStrategy ?? RetryStrategy(maxRetries: 0)
                s.maxRetries = max(0, count)
                $0.retryStrategy = s
            }
            return self
        }
        @discardableResult
        public func backoff(_ backoff: RetryStrategy.Backoff, fileID: String = #fileID, line: Int = #line)
            -> RetryMaker
        {
            maker.record("retry.backoff", SourceLine(fileID: fileID, line: line)) {
                var s = $0.retryStrategy ?? RetryStrategy(maxRetries: 0)
                s.backoff = backoff
                $0.retryStrategy = s
            }
            return self
        }
        /// Fraction of each delay drawn at random.
        @discardableResult
        public func jitter(_ fraction: Double, fileID: String = #fileID, line: Int = #line) -> RetryMaker {
            maker.record("retry.jitter", SourceLine(fileID: fileID, line: line)) {
                var s = $0.retryStrategy ?? RetryStrategy(maxRetries: 0)
                s.jitter = min(1, max(0, fraction))
                $0.retryStrategy = s
            }
            return self
        }
        public var with: RetryMaker { self }
        public var and: RetryMaker { self }
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

    /// Discards these options and writes new ones (the same as ``make(_:)``).
    public func remade(_ configure: (ImageOptionsMaker) -> Void) throws(ImageOptionsError) -> ImageOptions {
        try Self.make(configure)
    }
}

extension ImageOptions: CustomDebugStringConvertible {
    /// The settings that differ from the defaults, and the cache key they give
    /// (`<source key>@<processor identifier>`).
    public var debugDescription: String {
        var parts: [String] = []
        let d = ImageOptions()
        let key = ImageCache.cacheKey(cacheKey ?? "<source key>", processorIdentifier: processorIdentifier)
        parts.append("cache key: \(key)")
        if !ignoredQueryItems.isEmpty { parts.append("ignoring query: \(ignoredQueryItems.sorted())") }
        if forceRefresh { parts.append("forceRefresh") }
        if onlyFromCache { parts.append("onlyFromCache") }
        if fromMemoryCacheOrRefresh { parts.append("fromMemoryCacheOrRefresh") }
        if cacheMemoryOnly { parts.append("cacheMemoryOnly") }
        if waitForCache { parts.append("waitForCache") }
        if cacheOriginalImage { parts.append("cacheOriginalImage") }
        if let e = memoryCacheExpiration { parts.append("memory expires: \(e)") }
        if let e = diskCacheExpiration { parts.append("disk expires: \(e)") }
        if memoryCacheAccessExtendingExpiration != d.memoryCacheAccessExtendingExpiration {
            parts.append("memory extends: \(memoryCacheAccessExtendingExpiration)")
        }
        if diskCacheAccessExtendingExpiration != d.diskCacheAccessExtendingExpiration {
            parts.append("disk extends: \(diskCacheAccessExtendingExpiration)")
        }
        if let t = timeout { parts.append("timeout: \(t)") }
        if !headers.isEmpty { parts.append("headers: \(headers.map(\.name))") }
        if let r = retryStrategy { parts.append("retry: \(r.maxRetries) × \(r.backoff)") }
        if requestModifier != nil { parts.append("request modifier") }
        if redirectHandler != nil { parts.append("redirect handler") }
        if let p = priority { parts.append("priority: \(p.rawValue)") }
        if !alternativeSources.isEmpty { parts.append("alternatives: \(alternativeSources.count)") }
        return "ImageOptions(" + parts.joined(separator: ", ") + ")"
    }
}
