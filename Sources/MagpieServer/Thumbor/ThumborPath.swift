/// A thumbor request path taken apart as thumbor's route takes it (libthumbor's `Url.regex()`,
/// which tornado anchors at both ends and matches against the path as it was sent):
///
///     /[unsafe/|{signature}/][debug/][meta/][trim[:top-left|:bottom-right][:tolerance]/]
///      [{left}x{top}:{right}x{bottom}/][[adaptive-][full-]fit-in/][[-]{w}x[-]{h}/]
///      [left/|right/|center/][top/|bottom/|middle/][smart/][filters:{…})/]{image}
///
/// Every part is optional and, as in the regex, taken where it matches and something is left
/// for the image (which is everything after). Each part's value is then percent-decoded, as
/// tornado decodes a route's groups. The signature signs the path as sent after `/{signature}/`.
public struct ThumborPath: Sendable, Equatable {
    public var unsafe = false
    /// The first segment when it is not `unsafe` (a signature, or whatever a client put there).
    public var signature: String?
    /// What the signature signs: the path as sent, after `/{signature}/`.
    public var signed = ""
    public var debug = false
    public var meta = false
    /// `trim`, `trim:bottom-right:10`…, as written.
    public var trim: String?
    public var crop: (left: Int, top: Int, right: Int, bottom: Int)?
    public var adaptive = false
    public var full = false
    public var fitIn = false
    public var horizontalFlip = false
    public var verticalFlip = false
    /// A length, or `nil` for `orig`; `0` when not given.
    public var width: Int? = 0
    public var height: Int? = 0
    public var halign = "center"
    public var valign = "middle"
    public var smart = false
    /// What `filters:` holds, decoded (`quality(80):format(webp)`), or empty.
    public var filters = ""
    /// The image as thumbor's handler has it: decoded, then quoted again (`/` kept).
    public var image = ""

    public static func == (a: ThumborPath, b: ThumborPath) -> Bool {
        a.unsafe == b.unsafe && a.signature == b.signature && a.signed == b.signed && a.debug == b.debug
            && a.meta == b.meta && a.trim == b.trim && a.crop?.left == b.crop?.left && a.crop?.top == b.crop?.top
            && a.crop?.right == b.crop?.right && a.crop?.bottom == b.crop?.bottom && a.adaptive == b.adaptive
            && a.full == b.full && a.fitIn == b.fitIn && a.horizontalFlip == b.horizontalFlip
            && a.verticalFlip == b.verticalFlip && a.width == b.width && a.height == b.height
            && a.halign == b.halign && a.valign == b.valign && a.smart == b.smart && a.filters == b.filters
            && a.image == b.image
    }

    public init() {}

    /// Parses a request target (a query string is not part of the path, as in tornado).
    /// Throws ``ServiceError/malformedPath`` where thumbor's route would not match (no image).
    public static func parse(_ target: String) throws(ServiceError) -> ThumborPath {
        var raw = Array(target.utf8)
        if let q = raw.firstIndex(of: UInt8(ascii: "?")) { raw.removeSubrange(q...) }
        guard raw.count <= 16 << 10 else { throw .malformedPath }
        var m = ThumborPathMatcher(raw)
        var p = ThumborPath()
        m.take { m in m.literal("/") }
        let afterSlash = m.at
        if m.take({ m in m.literal("unsafe/") }) {
            p.unsafe = true
        } else if m.take({ m in m.lazy(then: "/") }) {
            p.signature = try decoded(m.text(afterSlash, m.at - 1))
            p.signed = String(decoding: raw[m.at...], as: UTF8.self)
        }
        p.debug = m.take { m in m.literal("debug/") }
        p.meta = m.take { m in m.literal("meta/") }
        let trimStart = m.at
        if m.take({ m in
            guard m.literal("trim") else { return false }
            m.optional { m in m.literal(":top-left") || m.literal(":bottom-right") }
            m.optional { m in m.literal(":") && m.digits() }
            return m.literal("/")
        }) {
            p.trim = try decoded(m.text(trimStart, m.at - 1))
        }
        var numbers: [Int] = []
        if m.take({ m in
            numbers = []
            return m.number(&numbers) && m.literal("x") && m.number(&numbers) && m.literal(":")
                && m.number(&numbers) && m.literal("x") && m.number(&numbers) && m.literal("/")
        }) {
            p.crop = (numbers[0], numbers[1], numbers[2], numbers[3])
        }
        var fit = (adaptive: false, full: false)
        if m.take({ m in
            fit.adaptive = m.optional { m in m.literal("adaptive-") }
            fit.full = m.optional { m in m.literal("full-") }
            return m.literal("fit-in/")
        }) {
            (p.adaptive, p.full, p.fitIn) = (fit.adaptive, fit.full, true)
        }
        var size = ThumborPathMatcher.Size()
        if m.take({ m in m.size(&size) }) {
            (p.horizontalFlip, p.width, p.verticalFlip, p.height) = (size.flipX, size.width, size.flipY, size.height)
        }
        for word in ["left", "right", "center"] where m.take({ m in m.literal(word + "/") }) {
            p.halign = word
            break
        }
        for word in ["top", "bottom", "middle"] where m.take({ m in m.literal(word + "/") }) {
            p.valign = word
            break
        }
        p.smart = m.take { m in m.literal("smart/") }
        let filtersStart = m.at + 8
        if m.take({ m in m.literal("filters:") && m.lazy(then: ")/") }) {
            p.filters = try decoded(m.text(filtersStart, m.at - 1))
        }
        guard m.at < raw.count else { throw .malformedPath }
        p.image = ThumborQuoting.quote(try decoded(m.text(m.at, raw.count)), safe: "/")
        return p
    }

    /// Percent-decoded as tornado decodes a route's groups (`+` stays `+`), as UTF-8.
    static func decoded(_ s: String) throws(ServiceError) -> String {
        guard let text = ThumborQuoting.unquote(s) else { throw .malformedPath }
        return text
    }
}
