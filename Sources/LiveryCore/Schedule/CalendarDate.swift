/// A day of the proleptic Gregorian calendar, with no time zone attached: `2026-06-21`. Which
/// zone's day it is belongs to whoever uses it (`SolarTimes` takes it in the place's mean solar
/// time, UTC + longitude/15 hours, so that sunrise comes before sunset).
public struct CalendarDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The year, 1 through 9999 (four digits in `YYYY-MM-DD`).
    public let year: Int
    /// The month, 1 through 12.
    public let month: Int
    /// The day of the month, 1 through 28, 29, 30 or 31 as the month and year have.
    public let day: Int

    /// The date, or nil when there is no such day (`2026-02-29`, month 13, year 0).
    /// - Parameters:
    ///   - year: 1 through 9999.
    ///   - month: 1 through 12.
    ///   - day: 1 through the month's length (February has 29 days in Gregorian leap years).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...Self.length(ofMonth: month, year: year)).contains(day)
        else { return nil }
        (self.year, self.month, self.day) = (year, month, day)
    }

    /// Reads `YYYY-MM-DD` (ISO 8601's calendar date, extended format): exactly four, two and two
    /// digits; nil for anything else or a day that does not exist.
    /// - Parameter text: The date, e.g. `2026-06-21`.
    public init?(iso text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } }),
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2])
        else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// The date `days` days after 1970-01-01 (before it when negative), by Howard Hinnant's
    /// `civil_from_days` ("chrono-Compatible Low-Level Date Algorithms"); nil outside years
    /// 1 through 9999.
    /// - Parameter days: Days since 1970-01-01.
    public init?(daysSinceEpoch days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(year: yoe + era * 400 + (m <= 2 ? 1 : 0), month: m, day: d)
    }

    /// Days from 1970-01-01 to this date (negative before it), by Howard Hinnant's
    /// `days_from_civil`.
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The Julian Day of this date's 0h UTC (1970-01-01 0h is JD 2440587.5, Meeus, Astronomical
    /// Algorithms, chapter 7).
    public var julianDay: Double { 2_440_587.5 + Double(daysSinceEpoch) }

    /// `YYYY-MM-DD`.
    public var description: String {
        func digits(_ n: Int, _ width: Int) -> String {
            let s = String(n)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(digits(year, 4))-\(digits(month, 2))-\(digits(day, 2))"
    }

    /// Earlier dates first.
    public static func < (a: CalendarDate, b: CalendarDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    /// Days in `month` of `year`, leap years by the Gregorian rule.
    static func length(ofMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
