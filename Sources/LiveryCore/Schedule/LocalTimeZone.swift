import Foundation

/// The rule that turns instants into local time: the offset from UTC in force at each instant.
/// Everything the schedule does in local time (a `times` schedule's transitions, today's date,
/// the times `livery schedule` prints) is computed from this one function; `SystemTimeZone` is
/// the process's own zone, as libc reads it.
public protocol LocalTimeZone: Sendable {
    /// The offset of local time from UTC at `instant`, in seconds, east positive (3600 in CET,
    /// −18000 in EST, 50400 in `<+14>-14`).
    func secondsFromUTC(at instant: Date) -> Int
}

/// The process's local time zone as libc has it, so that it is the zone `date` and every other C
/// program of the session use: `TZ` unset (or empty) is `/etc/localtime`; `TZ=Area/City` or
/// `TZ=:Area/City` a file of the zone database; any other value a POSIX rule such as
/// `CET-1CEST,M3.5.0,M10.5.0/3`, `EST5EDT,M3.2.0/2,M11.1.0/2` or `<+14>-14` (POSIX.1-2017,
/// 8.3 "Other Environment Variables", TZ). A value libc can read neither way is UTC to libc, and
/// so here.
public struct SystemTimeZone: LocalTimeZone {
    /// The zone the environment and `/etc/localtime` give now: calls `tzset`, so that a changed
    /// `TZ` or `/etc/localtime` is read again.
    public init() { tzset() }

    /// `tm_gmtoff` of `localtime_r` at the second of `instant`.
    public func secondsFromUTC(at instant: Date) -> Int {
        var seconds = time_t(instant.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return 0 }
        return parts.tm_gmtoff
    }
}

extension LocalTimeZone {
    /// The offset at the second `seconds` after 1970-01-01T00:00:00Z.
    func offset(_ seconds: Int) -> Int { secondsFromUTC(at: Date(timeIntervalSince1970: Double(seconds))) }

    /// The local calendar day of `instant`, in days since 1970-01-01.
    public func localDay(of instant: Date) -> Int {
        let seconds = Int(instant.timeIntervalSince1970.rounded(.down))
        return (seconds + offset(seconds)).floorDivided(by: 86_400)
    }

    /// The local calendar date of `instant` (nil outside years 1 through 9999).
    public func localDate(of instant: Date) -> CalendarDate? {
        CalendarDate(daysSinceEpoch: localDay(of: instant))
    }

    /// The first instant at which local time reads `seconds` after the start of local day `day`:
    /// of a time that a change of offset repeats (clocks set back), the first; of a time that a
    /// change skips (clocks set forward), the instant the gap ends, when local time reads the
    /// first time after it.
    /// - Parameters:
    ///   - day: The local calendar day, in days since 1970-01-01.
    ///   - seconds: Seconds after the day's start (midnight), 0 through 86399.
    public func instant(day: Int, seconds: Int) -> Date {
        let local = day * 86_400 + seconds
        // An instant `t` has local time `t + offset(t)`. Its offset is one of those in force
        // around it: two days either side (a zone changes its offset at most once in that
        // span), and those each of these leads to.
        var offsets = [offset(local - 2 * 86_400), offset(local + 2 * 86_400)]
        offsets += offsets.map { offset(local - $0) }
        let readings = offsets.map { local - $0 }.filter { $0 + offset($0) == local }
        if let first = readings.min() { return Date(timeIntervalSince1970: Double(first)) }
        // A gap: local time goes from before `local` to after it at the change of offset, which
        // lies between the instants the offsets before and after it would give. Local time
        // increases in between, so the first instant that reads `local` or later is found by
        // bisection.
        var (low, high) = (local - offsets.max()!, local - offsets.min()!)
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if middle + offset(middle) >= local { high = middle } else { low = middle }
        }
        return Date(timeIntervalSince1970: Double(high))
    }

    /// `instant` in local time as RFC 3339 says it, rounded down to the second:
    /// `2026-03-29T07:00:00+02:00`, `…Z` where the offset is zero (an offset with seconds, as
    /// some zones had before 1900, is written `+HH:MM:SS`).
    public func timestamp(_ instant: Date) -> String {
        let utc = Int(instant.timeIntervalSince1970.rounded(.down))
        let offset = offset(utc)
        let local = utc + offset
        let day = local.floorDivided(by: 86_400)
        let time = local - day * 86_400
        let date = CalendarDate(daysSinceEpoch: day)?.description ?? "\(day) days after 1970-01-01"
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        var zone = "Z"
        if offset != 0 {
            let a = abs(offset)
            zone = (offset < 0 ? "-" : "+") + two(a / 3600) + ":" + two(a / 60 % 60)
            if a % 60 != 0 { zone += ":" + two(a % 60) }
        }
        return "\(date)T\(two(time / 3600)):\(two(time / 60 % 60)):\(two(time % 60))\(zone)"
    }
}

extension Int {
    /// The quotient rounded towards negative infinity (`-1 / 86400` is 0; this is −1).
    fileprivate func floorDivided(by d: Int) -> Int {
        let q = self / d
        return (self % d != 0 && (self < 0) != (d < 0)) ? q - 1 : q
    }
}
