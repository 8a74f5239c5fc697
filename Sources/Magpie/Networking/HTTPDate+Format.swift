/// Writing dates: the IMF-fixdate of HTTP headers and the compact UTC stamps AWS signs, from one
/// conversion of days to a civil date (the inverse of ``HTTPDate/daysFromCivil(year:month:day:)``).
extension HTTPDate {
    /// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's algorithm).
    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, doy - (153 * mp + 2) / 5 + 1)
    }

    /// Whole seconds since 1970 as days, a civil date and the seconds into that day (UTC).
    private static func split(_ seconds: Int) -> (days: Int, date: (year: Int, month: Int, day: Int), time: Int) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        return (days, civil(fromDays: days), seconds - days * 86_400)
    }

    private static func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }

    /// An IMF-fixdate (RFC 9110 §5.6.7): `Sun, 06 Nov 1994 08:49:37 GMT`.
    package static func format(seconds: Int) -> String {
        let (days, d, time) = split(seconds)
        let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(weekdays[((days % 7) + 7) % 7]), \(two(d.day)) \(months[d.month - 1]) \(d.year) "
            + "\(two(time / 3600)):\(two(time / 60 % 60)):\(two(time % 60)) GMT"
    }

    /// AWS's `20150830` and `20150830T123600Z`.
    package static func awsStamps(seconds: Int) -> (day: String, stamp: String) {
        let (_, d, time) = split(seconds)
        let day = "\(d.year)\(two(d.month))\(two(d.day))"
        return (day, "\(day)T\(two(time / 3600))\(two(time / 60 % 60))\(two(time % 60))Z")
    }
}
