#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// HTTP dates (RFC 9110 §5.6.7): the IMF-fixdate senders use, and the two obsolete forms a
/// recipient must still read. No `DateFormatter`, no locale.
///
/// Strict on structure, lenient on case, as browsers are: every separator, every digit count and
/// the single spaces are as the grammar has them (`Thu, 18  Aug  2050 …`, a one-digit hour, a
/// two-digit year in the IMF form or `UTC` are not dates), while `THU`, `AUG` and `gMT` are read
/// as `Thu`, `Aug` and `GMT`.
package enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    private static let longDays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT" or
    /// "Sun Nov  6 08:49:37 1994" (surrounding spaces and tabs aside); `nil` for anything else.
    package static func parse(_ text: String) -> Date? {
        let b = Array(HTTPCacheHeaders.trimmed(Substring(text)).utf8)
        let fields: (day: Int?, month: Int?, year: Int?, time: Int?)
        if b.count == 29, b[3] == UInt8(ascii: ","), word(b, 0..<3, in: days) != nil {
            // IMF-fixdate: day-name "," SP 2DIGIT SP month SP 4DIGIT SP time SP "GMT"
            guard spaces(b, at: [4, 7, 11, 16, 25]), isGMT(b, 26) else { return nil }
            fields = (digits(b, 5..<7), word(b, 8..<11, in: months), digits(b, 12..<16), clock(b, 17))
        } else if b.count == 24, word(b, 0..<3, in: days) != nil {
            // asctime: day-name SP month SP ( 2DIGIT / SP DIGIT ) SP time SP 4DIGIT
            guard spaces(b, at: [3, 7, 10, 19]) else { return nil }
            let day = b[8] == UInt8(ascii: " ") ? digits(b, 9..<10) : digits(b, 8..<10)
            fields = (day, word(b, 4..<7, in: months), digits(b, 20..<24), clock(b, 11))
        } else if let comma = b.firstIndex(of: UInt8(ascii: ",")), word(b, 0..<comma, in: longDays) != nil,
            b.count == comma + 24
        {
            // RFC 850: day-name-l "," SP 2DIGIT "-" month "-" 2DIGIT SP time SP "GMT"
            let s = comma + 1
            guard spaces(b, at: [s, s + 10, s + 19]), b[s + 3] == UInt8(ascii: "-"), b[s + 7] == UInt8(ascii: "-"),
                isGMT(b, s + 20), let yy = digits(b, s + 8..<s + 10)
            else { return nil }
            // Two-digit years: the one in the last century or this one, whichever is nearer.
            fields = (
                digits(b, s + 1..<s + 3), word(b, s + 4..<s + 7, in: months), yy < 70 ? 2000 + yy : 1900 + yy,
                clock(b, s + 11)
            )
        } else {
            return nil
        }
        guard let day = fields.day, let month = fields.month, let year = fields.year, let time = fields.time,
            (1601...9999).contains(year), (1...monthLength(month, year)).contains(day)
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days * 86400 + time))
    }

    private static func monthLength(_ month: Int, _ year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// `hh:mm:ss` at `at` as seconds of the day (a leap second allowed); `nil` when malformed.
    private static func clock(_ b: [UInt8], _ at: Int) -> Int? {
        guard b[at + 2] == UInt8(ascii: ":"), b[at + 5] == UInt8(ascii: ":"), let h = digits(b, at..<at + 2),
            let m = digits(b, at + 3..<at + 5), let s = digits(b, at + 6..<at + 8), h < 24, m < 60, s <= 60
        else { return nil }
        return h * 3600 + m * 60 + s
    }

    /// The number written with exactly these ASCII digits.
    private static func digits(_ b: [UInt8], _ range: Range<Int>) -> Int? {
        var n = 0
        for i in range {
            guard b[i] >= 48 && b[i] <= 57 else { return nil }
            n = n * 10 + Int(b[i] - 48)
        }
        return n
    }

    /// The 1-based position in `names` (lower-case) of the ASCII letters at `range`, any case.
    private static func word(_ b: [UInt8], _ range: Range<Int>, in names: [String]) -> Int? {
        guard !range.isEmpty, range.count <= 9 else { return nil }
        var lower = ""
        for i in range {
            let c = b[i] | 0x20
            guard c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z") else { return nil }
            lower.unicodeScalars.append(Unicode.Scalar(c))
        }
        return names.firstIndex(of: lower).map { $0 + 1 }
    }

    private static func spaces(_ b: [UInt8], at: [Int]) -> Bool { at.allSatisfy { b[$0] == UInt8(ascii: " ") } }

    private static func isGMT(_ b: [UInt8], _ at: Int) -> Bool {
        b[at] | 0x20 == UInt8(ascii: "g") && b[at + 1] | 0x20 == UInt8(ascii: "m")
            && b[at + 2] | 0x20 == UInt8(ascii: "t")
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }
}
