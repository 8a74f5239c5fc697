/// How the values of imgproxy's variables become arguments (imgproxy's `configurators`).
extension ImgproxyEnvironment {
    static func int(_ flag: String, _ range: ClosedRange<Int> = 0...Int(Int32.max)) -> Convert {
        { v throws(Failure) in
            guard let n = Int(v), range.contains(n) else { throw Failure(description: "not an integer in \(range)") }
            return [flag, String(n)]
        }
    }

    static func bool(_ s: String) throws(Failure) -> Bool {
        switch s {
        case "1", "t", "T", "true", "TRUE", "True": return true
        case "0", "f", "F", "false", "FALSE", "False": return false
        default: throw Failure(description: "not a boolean (true, false, 1, 0)")
        }
    }

    /// A flag when true (and `off` when false, if the flag has an inversion).
    static func flag(_ on: String, off: String? = nil) -> Convert {
        { v throws(Failure) in try bool(v) ? [on] : off.map { [$0] } ?? [] }
    }

    /// A flag when false (a variable whose true is this server's default).
    static func unlessTrue(_ flag: String) -> Convert {
        { v throws(Failure) in try bool(v) ? [] : [flag] }
    }

    static func string(_ flag: String) -> Convert {
        { v throws(Failure) in
            guard !v.isEmpty else { throw Failure(description: "empty") }
            return [flag, v]
        }
    }

    /// A comma-separated list, each item an argument of `flag`.
    static func list(_ flag: String) -> Convert {
        { v throws(Failure) in
            v.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                .flatMap { [flag, $0] }
        }
    }

    /// imgproxy's hex slice: one hex string, or several separated by commas (key rotation: the
    /// n-th key goes with the n-th salt), each given as its own flag.
    static func hex(_ flag: String) -> Convert {
        { v throws(Failure) in
            let items = v.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            var arguments: [String] = []
            for item in items {
                guard !item.isEmpty, item.count % 2 == 0,
                    item.utf8.allSatisfy({ $0 < 0x80 && Character(Unicode.Scalar($0)).isHexDigit })
                else { throw Failure(description: "not hex") }
                arguments += [flag, item]
            }
            return arguments
        }
    }

    /// imgproxy's `:8080` (every interface) or `HOST:PORT`.
    static func bind(_ flag: String) -> Convert {
        { v throws(Failure) in
            let text = v.hasPrefix(":") ? "0.0.0.0" + v : v
            guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
                (0...65535).contains(port), colon > text.startIndex
            else { throw Failure(description: "not HOST:PORT or :PORT") }
            return [flag, text]
        }
    }

    /// Megapixels (imgproxy's unit) as whole pixels.
    static func megapixels(_ flag: String) -> Convert {
        { v throws(Failure) in
            guard let mp = Double(v), mp.isFinite, mp > 0, mp <= 1_000_000 else {
                throw Failure(description: "not a positive number of megapixels")
            }
            return [flag, String(Int((mp * 1_000_000).rounded()))]
        }
    }

    /// imgproxy's 0 means "no limit"; Magpie always has one, so 0 keeps the flag's default.
    static func limit(_ flag: String) -> Convert {
        { v throws(Failure) in v == "0" ? [] : try int(flag, 1...Int.max)(v) }
    }

    /// A URL path as imgproxy's `URLPath` reads one: query and fragment cut, no trailing `/`, a
    /// leading `/` added; empty: nothing.
    static func urlPath(_ flag: String) -> Convert {
        { v throws(Failure) in
            var path = Substring(v)
            if let cut = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<cut] }
            if path.hasSuffix("/") { path = path.dropLast() }
            guard !path.isEmpty else { return [] }
            return [flag, path.hasPrefix("/") ? String(path) : "/" + path]
        }
    }

    /// `jpeg=80,webp=70,avif=60,jxl=77`: formats without a quality here (gif…) are left out.
    @Sendable static func formatQuality(_ v: String) throws(Failure) -> [String] {
        var out: [String] = []
        for item in v.split(separator: ",") {
            let parts = item.split(separator: "=").map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, let q = Int(parts[1]), (1...100).contains(q) else {
                throw Failure(description: "not FORMAT=QUALITY,… with qualities 1–100")
            }
            if ["jpg", "jpeg", "png", "webp", "avif", "jxl"].contains(parts[0].lowercased()) {
                out += ["--format-quality", "\(parts[0].lowercased())=\(q)"]
            } else if !["gif", "heic", "tiff", "bmp", "ico"].contains(parts[0].lowercased()) {
                throw Failure(description: "unknown format \(parts[0])")
            }
        }
        return out
    }
}
