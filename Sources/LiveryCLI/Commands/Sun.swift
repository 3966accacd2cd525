import Foundation
import LiveryCore

/// `livery sun --latitude LAT --longitude LON [--date YYYY-MM-DD] [--json]`: the sunrise and
/// sunset of a day at a place, in UTC, with no daemon (`SolarTimes`: the day is taken in the
/// place's mean solar time, so that sunrise comes before sunset).
///
/// Prints `sunrise 2026-06-21T03:18:25Z` and `sunset …Z` lines, or `polar day` / `polar night`;
/// with `--json` one object, `{"date": "2026-06-21", "latitude": 52.37, "longitude": 4.89,
/// "sunrise": "…Z", "sunset": "…Z"}`, or `"polar": "day"` / `"night"` in place of the two
/// times. The date is the day at the place in its mean solar time; without `--date`, today in
/// the local time zone. Times are rounded to the second. Exit 0, or 2 for a place off the globe.
func sun(_ inv: Invocation, output: Output) -> Int32 {
    // parse() makes sure both are there for `sun`.
    guard let latitude = inv.latitude, let longitude = inv.longitude else { return 2 }
    let date = inv.date ?? today()
    let day: SolarDay
    do { day = try SolarTimes.day(latitude: latitude, longitude: longitude, date: date) } catch {
        output.err("livery: \(error)\nTry 'livery sun --help'.\n")
        return 2
    }
    var fields: [(String, String)]
    switch day {
    case .crossing(let sunrise, let sunset): fields = [("sunrise", utc(sunrise)), ("sunset", utc(sunset))]
    case .polarDay: fields = [("polar", "day")]
    case .polarNight: fields = [("polar", "night")]
    }
    if inv.json {
        var object: [String: Any] = ["date": date.description, "latitude": latitude, "longitude": longitude]
        for (key, value) in fields { object[key] = value }
        output.out(jsonLine(object))
    } else {
        for (key, value) in fields { output.out("\(key) \(value)\n") }
    }
    return 0
}

/// Today's date in the local time zone, as libc reads `TZ` (`SystemTimeZone`).
private func today() -> CalendarDate {
    SystemTimeZone().localDate(of: Date()) ?? CalendarDate(year: 1970, month: 1, day: 1)!
}

/// `instant` as `YYYY-MM-DDTHH:MM:SSZ`, rounded to the nearest second.
private func utc(_ instant: Date) -> String {
    let f = ISO8601DateFormatter()
    f.timeZone = TimeZone(identifier: "UTC")
    return f.string(from: Date(timeIntervalSince1970: instant.timeIntervalSince1970.rounded()))
}
