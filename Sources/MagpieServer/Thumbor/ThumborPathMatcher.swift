/// The pieces of thumbor's route regex over a path's bytes, with the regex's preferences: an
/// optional part is taken where it matches (``take(_:)`` keeps it only when something is left
/// for the image, as backtracking would), `\d+` is greedy, `.+?` is lazy.
struct ThumborPathMatcher {
    let bytes: [UInt8]
    var at = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func text(_ from: Int, _ to: Int) -> String { String(decoding: bytes[from..<to], as: UTF8.self) }

    /// Runs `part`; keeps what it matched only when it matched and left at least one byte.
    @discardableResult
    mutating func take(_ part: (inout ThumborPathMatcher) -> Bool) -> Bool {
        let start = at
        if part(&self) && at < bytes.count { return true }
        at = start
        return false
    }

    /// `(?:…)?` inside a part: matched or not (the result says which), it never fails the part.
    @discardableResult
    mutating func optional(_ part: (inout ThumborPathMatcher) -> Bool) -> Bool {
        let start = at
        if part(&self) { return true }
        at = start
        return false
    }

    mutating func literal(_ s: String) -> Bool {
        let u = Array(s.utf8)
        guard at + u.count <= bytes.count, bytes[at..<(at + u.count)].elementsEqual(u) else { return false }
        at += u.count
        return true
    }

    /// `\d+`, greedy.
    mutating func digits() -> Bool {
        let start = at
        while at < bytes.count, bytes[at] >= UInt8(ascii: "0"), bytes[at] <= UInt8(ascii: "9") { at += 1 }
        return at > start
    }

    /// `\d+` read as a number (one too large for 64 bits is `Int.max`: the limits answer it).
    mutating func number(_ into: inout [Int]) -> Bool {
        let start = at
        guard digits() else { return false }
        into.append(Int(text(start, at)) ?? .max)
        return true
    }

    /// `.+?` followed by `then`: the shortest run of at least one byte after which `then` comes.
    mutating func lazy(then: String) -> Bool {
        let u = Array(then.utf8)
        var end = at + 1
        while end + u.count <= bytes.count {
            if bytes[end..<(end + u.count)].elementsEqual(u) {
                at = end + u.count
                return true
            }
            end += 1
        }
        return false
    }

    struct Size {
        var flipX = false
        var width: Int? = 0
        var flipY = false
        var height: Int? = 0
    }

    /// `(-)?(\d+|orig)?x(-)?(\d+|orig)?/`
    mutating func size(_ size: inout Size) -> Bool {
        size = Size()
        size.flipX = literal("-")
        size.width = length() ?? 0
        guard literal("x") else { return false }
        size.flipY = literal("-")
        size.height = length() ?? 0
        return literal("/")
    }

    /// `\d+|orig`: a number, `.some(nil)` for `orig`, `nil` when neither is there.
    private mutating func length() -> Int?? {
        var n: [Int] = []
        if number(&n) { return .some(n[0]) }
        if literal("orig") { return .some(nil) }
        return nil
    }
}
