/// What thumbor's configuration (thumbor.conf) decides for thumbor's URLs
/// (``ServiceConfiguration/thumbor``); each field names its key, and its default is thumbor
/// 7.8's. With it set, the service answers thumbor's URLs at the root (and imgproxy's only under
/// ``PathRules/prefix``, when one is set: see docs/thumbor.md).
public struct ThumborSettings: Sendable, Equatable {
    /// `SECURITY_KEY`: signs URLs (HMAC-SHA1); nil: no signed URL is valid.
    public var securityKey: String?
    /// `ALLOW_UNSAFE_URL`: `/unsafe/…` URLs are served.
    public var allowsUnsafe = true
    /// `ALLOWED_SOURCES`: a host name each (exactly), or a pattern (a string with a regular
    /// expression's characters, matched against the whole host name, as thumbor's legacy form);
    /// empty: any host.
    public var allowedSources: [String] = []
    /// `LOADER = 'thumbor.loaders.file_loader'`: images are paths under `FILE_LOADER_ROOT_PATH`
    /// (``ServiceConfiguration/localRoot``), not URLs.
    public var loadsFiles = false
    /// `MAX_WIDTH`, `MAX_HEIGHT` (0: none): a larger request and source are brought down to them.
    public var maxWidth = 0
    public var maxHeight = 0
    /// `QUALITY`, and `WEBP_QUALITY` / `AVIF_QUALITY` for those formats where set.
    public var quality = 80
    public var webpQuality: Int?
    public var avifQuality: Int?
    /// `AUTO_WEBP`, `AUTO_AVIF`: the format for clients whose `Accept` lists it, where the URL
    /// names none (and `Vary: Accept` on the answers).
    public var autoWebP = false
    public var autoAVIF = false
    /// `RESPECT_ORIENTATION`: the source's EXIF orientation applied (thumbor's default leaves the
    /// pixels as stored).
    public var respectsOrientation = false
    /// `MAX_AGE` (seconds; 0: no `Cache-Control`).
    public var maxAge = 86_400
    /// `ENABLE_ETAGS`.
    public var etags = true
    /// `SEND_IF_MODIFIED_LAST_MODIFIED_HEADERS`.
    public var lastModified = false
    /// `HEALTHCHECK_ROUTE`: a regular expression the whole path is matched against.
    public var healthCheckRoute = "/healthcheck/?"
    /// `FILTERS`: the filters a URL may use, by thumbor's module names' last part (`quality`,
    /// `format`…); a filter not listed is skipped, as thumbor skips it.
    public var filters: Set<String> = ThumborFilter.builtIn
    /// `MAX_PIXELS`: a source with more is refused (400, as thumbor's engine refuses it).
    public var maxPixels = 75_000_000
    /// `META_CALLBACK_NAME`: `meta` answered as JSONP calling it (``isCallbackName(_:)``).
    public var metaCallback: String?

    /// Whether `name` is a JSONP callback this server writes: identifiers joined by dots, at most
    /// 128 characters (a script's text is not taken from a URL).
    public static func isCallbackName(_ name: String) -> Bool { ThumborMeta.isCallback(name) }
    /// `AUTO_PNG_TO_JPG`: an opaque result of a PNG written as JPEG (where no format is asked).
    public var autoPNGToJPG = false
    /// `PROGRESSIVE_JPEG`: JPEG results progressive (thumbor's default).
    public var progressiveJPEG = true
    /// `PNG_COMPRESSION_LEVEL`: zlib's level for PNG results, 0–9.
    public var pngCompressionLevel = 6

    public init() {}

    /// Whether `path` (the request's, without its query) is the health check's. thumbor's routes
    /// are regular expressions matched whole; the usual one, a path with an optional last `/`
    /// (`/healthcheck/?`), is compared as text, the others through a regular expression.
    func isHealthCheck(_ path: Substring) -> Bool {
        let special = "\\^$.|?*+()[]{}"
        let route = healthCheckRoute
        if route.hasSuffix("/?"), !route.dropLast(2).contains(where: special.contains) {
            let base = route.dropLast(2)
            return path == base || path == base + "/"
        }
        if !route.contains(where: special.contains) { return path == route }
        guard let regex = try? Regex(route) else { return false }
        return (try? regex.wholeMatch(in: path)) != nil
    }
}
