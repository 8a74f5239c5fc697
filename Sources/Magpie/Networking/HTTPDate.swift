#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// HTTP dates (RFC 9110 §5.6.7): the IMF-fixdate senders use, and the two obsolete forms a
/// recipient must still read. No `DateFormatter`, no locale.
enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT" or
    /// "Sun Nov  6 08:49:37 1994"; `nil` for anything else.
    static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        var day: Int?
        var month: Int?
        var year: Int?
        var time: Substring?
        if parts.count == 6, parts[5] == "GMT", parts[0].hasSuffix(",") {  // IMF-fixdate
            (day, month, year, time) = (Int(parts[1]), index(parts[2]), Int(parts[3]), parts[4])
        } else if parts.count == 4, parts[3] == "GMT", parts[0].hasSuffix(",") {  // RFC 850
            let dmy = parts[1].split(separator: "-")
            guard dmy.count == 3, let yy = Int(dmy[2]), dmy[2].count == 2 else { return nil }
            // Two-digit years: the one in the last century or this one, whichever is nearer.
            (day, month, year, time) = (Int(dmy[0]), index(dmy[1]), yy < 70 ? 2000 + yy : 1900 + yy, parts[2])
        } else if parts.count == 5 {  // asctime
            (day, month, year, time) = (Int(parts[2]), index(parts[1]), Int(parts[4]), parts[3])
        }
        guard let day, let month, let year, let time, (1...31).contains(day), (1601...9999).contains(year) else {
            return nil
        }
        let clock = time.split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3, (0..<24).contains(clock[0]), (0..<60).contains(clock[1]), (0...60).contains(clock[2])
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days * 86400 + clock[0] * 3600 + clock[1] * 60 + clock[2]))
    }

    private static func index(_ name: Substring) -> Int? { months.firstIndex(of: String(name)).map { $0 + 1 } }

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
