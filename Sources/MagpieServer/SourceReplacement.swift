/// A rewrite of a source URL's beginning (imgproxy's `IMGPROXY_URL_REPLACEMENTS`): `pattern` is
/// matched at the start of the source, a `*` standing for any run of characters but `/`;
/// `replacement` takes its place, with `${N}` (or `$N`) the Nth star's text and `$$` a `$`.
/// Stars are greedy, as imgproxy's regular expression makes them, and matching takes time linear
/// in the source whatever its bytes (a table of which positions can finish the pattern, per
/// star), so a hostile URL cannot make it slow.
public struct SourceReplacement: Sendable, Hashable {
    public let pattern: String
    public let replacement: String
    private let literals: [[UInt8]]

    /// Stars a pattern may have (imgproxy sets no bound; the matching's tables grow with them).
    public static let maxStars = 16

    /// `nil` when the pattern is empty or has more than ``maxStars`` stars.
    public init?(pattern: String, replacement: String) {
        let parts = pattern.utf8.split(separator: UInt8(ascii: "*"), omittingEmptySubsequences: false).map(Array.init)
        guard !pattern.isEmpty, parts.count - 1 <= Self.maxStars else { return nil }
        self.pattern = pattern
        self.replacement = replacement
        self.literals = parts
    }

    /// `IMGPROXY_URL_REPLACEMENTS`'s form: `pattern=replacement` pairs divided by `;`.
    public static func list(_ text: String) -> [SourceReplacement]? {
        var out: [SourceReplacement] = []
        for pair in text.split(separator: ";", omittingEmptySubsequences: false) {
            guard let eq = pair.firstIndex(of: "="),
                let r = SourceReplacement(
                    pattern: String(pair[..<eq]), replacement: String(pair[pair.index(after: eq)...]))
            else { return nil }
            out.append(r)
        }
        return out
    }

    /// `source` with its matching beginning replaced; as it is when the pattern does not match.
    public func apply(_ source: String) -> String {
        let s = Array(source.utf8)
        guard let captures = match(s) else { return source }
        var out: [UInt8] = []
        expand(Array(replacement.utf8), captures: captures, source: s, into: &out)
        out += s[captures[0].upperBound...]
        return String(decoding: out, as: UTF8.self)
    }

    /// The ranges of the whole match (first) and of each star, or `nil`.
    func match(_ s: [UInt8]) -> [Range<Int>]? {
        let n = s.count
        let k = literals.count - 1
        // runEnd[p]: where the run of non-`/` bytes from p ends (the first `/` at or after p, or n).
        var runEnd = [Int](repeating: n, count: n + 1)
        if n > 0 {
            for p in stride(from: n - 1, through: 0, by: -1) {
                runEnd[p] = s[p] == UInt8(ascii: "/") ? p : runEnd[p + 1]
            }
        }
        func literal(_ i: Int, at p: Int) -> Bool {
            let l = literals[i]
            return p + l.count <= n && s[p..<(p + l.count)].elementsEqual(l)
        }
        // can[i][p]: literal i matches at p and what follows it can finish the pattern.
        // last[i][q]: the largest p <= q with can[i][p] (or -1), to find a star's longest end.
        var last: [[Int]] = Array(repeating: [], count: k + 1)
        for i in stride(from: k, through: 1, by: -1) {
            var row = [Int](repeating: -1, count: n + 1)
            for p in 0...n {
                var ok = literal(i, at: p)
                if ok && i < k {
                    let start = p + literals[i].count
                    ok = last[i + 1][runEnd[start]] >= start
                }
                row[p] = ok ? p : (p > 0 ? row[p - 1] : -1)
            }
            last[i] = row
        }
        guard literal(0, at: 0) else { return nil }
        var position = literals[0].count
        var stars: [Range<Int>] = []
        for i in stride(from: 1, through: k, by: 1) {
            let end = last[i][runEnd[position]]
            guard end >= position else { return nil }
            stars.append(position..<end)
            position = end + literals[i].count
        }
        return [0..<position] + stars
    }

    /// Go's `Regexp.Expand` for numbered groups: `$N`, `${N}`, `$$`; a name that is not a group
    /// number gives nothing, a `$` with no name stays a `$`.
    private func expand(_ t: [UInt8], captures: [Range<Int>], source: [UInt8], into out: inout [UInt8]) {
        func word(_ c: UInt8) -> Bool {
            (0x30...0x39).contains(c) || (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) || c == 0x5F
        }
        var i = 0
        while i < t.count {
            guard t[i] == UInt8(ascii: "$"), i + 1 < t.count else {
                out.append(t[i])
                i += 1
                continue
            }
            var name: ArraySlice<UInt8>
            var next: Int
            if t[i + 1] == UInt8(ascii: "$") {
                out.append(UInt8(ascii: "$"))
                i += 2
                continue
            } else if t[i + 1] == UInt8(ascii: "{") {
                guard let close = t[(i + 2)...].firstIndex(of: UInt8(ascii: "}")), close > i + 2,
                    t[(i + 2)..<close].allSatisfy(word)
                else {
                    out.append(t[i])
                    i += 1
                    continue
                }
                (name, next) = (t[(i + 2)..<close], close + 1)
            } else {
                var e = i + 1
                while e < t.count && word(t[e]) { e += 1 }
                guard e > i + 1 else {
                    out.append(t[i])
                    i += 1
                    continue
                }
                (name, next) = (t[(i + 1)..<e], e)
            }
            if name.allSatisfy({ (0x30...0x39).contains($0) }), name.count <= 4,
                let n = Int(String(decoding: name, as: UTF8.self)), n < captures.count
            {
                out += source[captures[n]]
            }
            i = next
        }
    }
}
