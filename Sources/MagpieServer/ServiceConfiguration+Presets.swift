extension ServiceConfiguration {
    /// What is wrong with the presets, checked as imgproxy checks them at start (each applied
    /// alone, with the arguments separator): `nil` when every one parses.
    public func presetProblem() -> String? {
        for (name, segments) in presets.sorted(by: { $0.key < $1.key }) {
            guard segments.allSatisfy({ paths.hasSeparator(String($0)) }) else {
                return "preset \(name): every part must be an option (NAME\(paths.argumentsSeparator)ARGUMENTS)"
            }
            do {
                var alone = self
                alone.paths.allowedOptions = []
                _ = try ProcessingOptions.parse([], presets: alone.presets, rules: alone.paths, named: [name])
            } catch {
                return "preset \(name): \(error.message)"
            }
        }
        return nil
    }

    /// Why the cookie settings cannot be served, checked at start; `nil` when they can. Every
    /// cookie to every source (``CookiePassthrough/all``) needs URLs a stranger cannot write
    /// (signed, or sources held to ``allowedSources``): otherwise any page could name its own
    /// server as the source and be sent its visitors' cookies. imgproxy serves it either way.
    public func cookieProblem() -> String? {
        guard let cookies = cookiePassthrough else { return nil }
        if let base = cookies.baseURL, !CookiePassthrough.isBase(base) {
            return "the cookie base URL must be an absolute http(s) URL with a host"
        }
        if cookies.all && keys.isEmpty && allowedSources.isEmpty {
            return "unsafe: passing every cookie to every source needs signed URLs (--key, --salt) "
                + "or --allowed-source, so a stranger's URL cannot send clients' cookies to its own server"
        }
        return nil
    }
}
