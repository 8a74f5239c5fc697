/// An imgproxy-style request path, taken apart from the raw request target (never from a router,
/// which would drop the empty segment of `http://`):
///
///     /{signature}/{option}/{option}…/plain/{percent-encoded source URL}[@{ext}]
///     /{signature}/{option}/{option}…/{base64url source URL, maybe split by /}[.{ext}]
///
/// `%3A` in an option is `:`; a source written `http:/host` (proxies merge slashes) gets its
/// second slash back; a query string is ignored. ``PathRules`` reshape it as
/// imgproxy's variables do: another arguments separator, presets only, a file name after a base64
/// source, replacements and a base URL for the source.
struct ServicePath: Sendable, Hashable {
    /// The first segment.
    var signature: String
    /// What the signature signs: the path from the `/` after the signature to its end.
    var signed: String
    /// Option segments, `%3A` decoded (with ``PathRules/onlyPresets``: none).
    var options: [String]
    /// With ``PathRules/onlyPresets``: the presets the path names.
    var presets: [String] = []
    /// The source URL, decoded.
    var source: String
    /// The output extension the path asks for, lowercased.
    var ext: String?

    static func parse(_ target: String, rules: PathRules = .init()) throws(ServiceError)
        -> ServicePath
    {
        // Every search is in bytes, as Go's (and so imgproxy's): a Character search would not see
        // a `/` that a prepended mark (U+070F) or a combining one joins into one grapheme.
        let slashByte = UInt8(ascii: "/")
        var raw = Substring(target)
        if let query = raw.utf8.firstIndex(of: UInt8(ascii: "?")) { raw = raw[..<query] }
        guard raw.utf8.first == slashByte, raw.utf8.count <= 16 << 10 else { throw .malformedPath }
        let afterSlash = raw[raw.utf8.index(after: raw.startIndex)...]
        guard let end = afterSlash.utf8.firstIndex(of: slashByte) else { throw .malformedPath }
        let signature = String(afterSlash[..<end])
        let signed = afterSlash[end...]
        var rest = signed[signed.utf8.index(after: signed.startIndex)...]
        var options: [String] = []
        var presets: [String] = []
        if rules.onlyPresets {
            guard let slash = rest.utf8.firstIndex(of: slashByte) else { throw .malformedPath }
            presets = rules.split(colonsDecoded(rest[..<slash])).filter { !$0.isEmpty }.map(String.init)
            rest = rest[rest.utf8.index(after: slash)...]
        } else {
            while let slash = rest.utf8.firstIndex(of: slashByte) {
                let segment = rest[..<slash]
                let decoded = colonsDecoded(segment)
                guard !segment.utf8.elementsEqual("plain".utf8), rules.hasSeparator(decoded) else { break }
                options.append(decoded)
                rest = rest[rest.utf8.index(after: slash)...]
            }
        }
        var source: String
        var ext: String?
        if rest.utf8.starts(with: "plain/".utf8) {
            var encoded = rest[rest.utf8.index(rest.startIndex, offsetBy: 6)...]
            if let at = encoded.utf8.lastIndex(of: UInt8(ascii: "@")) {
                let suffix = encoded[encoded.utf8.index(after: at)...]
                guard isExtension(suffix) else { throw .malformedPath }
                ext = suffix.lowercased()
                encoded = encoded[..<at]
            }
            guard let decoded = percentDecoded(encoded) else { throw .malformedPath }
            source = decoded
        } else {
            if rules.base64IncludesFilename, let slash = rest.utf8.lastIndex(of: slashByte) { rest = rest[..<slash] }
            var encoded = Substring(String(decoding: rest.utf8.lazy.filter { $0 != UInt8(ascii: "/") }, as: UTF8.self))
            if let dot = encoded.utf8.lastIndex(of: UInt8(ascii: ".")) {
                let suffix = encoded[encoded.utf8.index(after: dot)...]
                guard isExtension(suffix) else { throw .malformedPath }
                ext = suffix.lowercased()
                encoded = encoded[..<dot]
            }
            guard let bytes = Base64URL.decode(encoded), let text = String(validating: bytes, as: UTF8.self) else {
                throw .malformedPath
            }
            source = text
        }
        guard !source.isEmpty else { throw .malformedPath }
        source = rules.rewritten(source)
        for scheme in ["http:/", "https:/"]
        where source.utf8.starts(with: scheme.utf8) && !source.utf8.starts(with: (scheme + "/").utf8) {
            source = scheme + "/" + String(decoding: source.utf8.dropFirst(scheme.utf8.count), as: UTF8.self)
        }
        return ServicePath(
            signature: signature, signed: String(signed), options: options, presets: presets, source: source, ext: ext)
    }

    /// `%3A` (either case) as `:`, in bytes; a segment with no `%` is taken as it is.
    static func colonsDecoded(_ segment: Substring) -> String {
        let bytes = segment.utf8
        guard bytes.contains(UInt8(ascii: "%")) else { return String(segment) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i != bytes.endIndex {
            let b = bytes[i]
            if b == UInt8(ascii: "%"), bytes.distance(from: i, to: bytes.endIndex) >= 3 {
                let h = bytes[bytes.index(after: i)]
                let l = bytes[bytes.index(i, offsetBy: 2)]
                if h == UInt8(ascii: "3"), l | 0x20 == UInt8(ascii: "a") {
                    out.append(UInt8(ascii: ":"))
                    i = bytes.index(i, offsetBy: 3)
                    continue
                }
            }
            out.append(b)
            i = bytes.index(after: i)
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func isExtension(_ s: Substring) -> Bool {
        (1...5).contains(s.utf8.count)
            && s.utf8.allSatisfy { ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A || (0x30...0x39).contains($0) }
    }

    /// `%XX` decoded once; `nil` for a broken escape or bytes that are not UTF-8.
    static func percentDecoded(_ s: Substring) -> String? {
        var out: [UInt8] = []
        var bytes = s.utf8.makeIterator()
        while let b = bytes.next() {
            guard b == UInt8(ascii: "%") else {
                out.append(b)
                continue
            }
            guard let h = bytes.next().flatMap(hexValue), let l = bytes.next().flatMap(hexValue) else { return nil }
            out.append(h << 4 | l)
        }
        return String(validating: out, as: UTF8.self)
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x41...0x46: return c - 0x41 + 10
        case 0x61...0x66: return c - 0x61 + 10
        default: return nil
        }
    }
}

/// base64url without padding (RFC 4648 §5); padding is accepted on input.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            let n = min(3, bytes.count - i)
            var word = UInt32(bytes[i]) << 16
            if n > 1 { word |= UInt32(bytes[i + 1]) << 8 }
            if n > 2 { word |= UInt32(bytes[i + 2]) }
            for k in 0...n { out.append(alphabet[Int(word >> UInt32(18 - 6 * k) & 63)]) }
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func decode(_ text: Substring) -> [UInt8]? {
        var values: [UInt8] = []
        for c in text.utf8 {
            switch c {
            case 0x41...0x5A: values.append(c - 0x41)
            case 0x61...0x7A: values.append(c - 0x61 + 26)
            case 0x30...0x39: values.append(c - 0x30 + 52)
            case UInt8(ascii: "-"), UInt8(ascii: "+"): values.append(62)
            case UInt8(ascii: "_"), UInt8(ascii: "/"): values.append(63)
            case UInt8(ascii: "="): continue
            default: return nil
            }
        }
        guard values.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        var i = 0
        while i < values.count {
            let n = min(4, values.count - i)
            var word: UInt32 = 0
            for k in 0..<4 { word = word << 6 | UInt32(k < n ? values[i + k] : 0) }
            for k in 0..<(n - 1) { out.append(UInt8(truncatingIfNeeded: word >> UInt32(16 - 8 * k))) }
            i += 4
        }
        return out
    }
}
