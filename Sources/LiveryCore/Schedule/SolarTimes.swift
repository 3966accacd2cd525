import Foundation

/// Whether and when the sun crosses the horizon on one day at one place.
public enum SolarDay: Equatable, Sendable {
    /// The sun rises at `sunrise` and sets at `sunset` (instants, so UTC; `sunrise` is earlier).
    case crossing(sunrise: Date, sunset: Date)
    /// The sun stays above the horizon all day (midnight sun).
    case polarDay
    /// The sun stays below the horizon all day.
    case polarNight
}

/// A place `SolarTimes` refuses, with the value given.
public enum SolarTimesError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A latitude that is not a number from −90 to 90 degrees.
    case latitudeOutOfRange(Double)
    /// A longitude that is not a number from −180 to 180 degrees.
    case longitudeOutOfRange(Double)

    /// What is wrong, for people.
    public var description: String {
        switch self {
        case .latitudeOutOfRange(let v): "latitude \(v) is outside -90...90 degrees (north positive)"
        case .longitudeOutOfRange(let v): "longitude \(v) is outside -180...180 degrees (east positive)"
        }
    }
}

/// Sunrise and sunset by the NOAA solar position algorithm (the equations of the NOAA Solar
/// Calculator and its spreadsheet, in `SolarPosition`), with the sun's position taken at the
/// event itself, as the calculator's `calcSunriseSet` intends by evaluating it again at the
/// instant its first answer gave: here again and again from mean solar noon, until the instant
/// no longer moves (`crossing`).
///
/// The horizon is NOAA's: the sun's centre at a zenith of 90.833° (34′ of refraction and the
/// sun's 16′ radius), for a sea-level observer. NOAA states its results accurate to about a
/// minute between 72° north and south and to about ten minutes nearer the poles; latitudes
/// beyond ±89.8° are taken as ±89.8°, as the NOAA calculator does, since the hour angle's
/// equation divides by the cosine of the latitude.
public enum SolarTimes {
    /// The zenith angle of the sun's centre at sunrise and sunset, in degrees (NOAA's standard).
    public static let zenith = 90.833

    /// The sunrise and sunset of calendar day `date` at the place, or that there is none.
    ///
    /// `date` is the day in the place's mean solar time, UTC + longitude/15 hours,
    /// so that sunrise comes before sunset everywhere, the date line included: at longitude 180
    /// the sunrise of 2026-06-21 is at 2026-06-20T17:58Z. A time lies within that day, except
    /// that a sun crossing the horizon near local midnight (days next to the midnight sun's) may
    /// fall up to the equation of time (at most about 17 minutes) outside it.
    ///
    /// A day on which the sun does not reach the horizon at the time of sunrise or of sunset is
    /// reported as polar: day when it stays above, night when it stays below (on the rare day
    /// when one of the two exists and the other does not, the day is given by the missing one).
    /// - Parameters:
    ///   - latitude: Degrees, north positive, −90 through 90.
    ///   - longitude: Degrees, east positive, −180 through 180.
    ///   - date: The calendar day in the place's mean solar time.
    /// - Returns: The two instants, or `.polarDay` / `.polarNight`.
    /// - Throws: `SolarTimesError` for a latitude or longitude outside its range (or not a number).
    public static func day(latitude: Double, longitude: Double, date: CalendarDate) throws(SolarTimesError)
        -> SolarDay
    {
        guard latitude >= -90, latitude <= 90 else { throw .latitudeOutOfRange(latitude) }
        guard longitude >= -180, longitude <= 180 else { throw .longitudeOutOfRange(longitude) }
        let clamped = min(max(latitude, -89.8), 89.8)
        let midnight = date.julianDay
        let sunrise = crossing(rising: true, latitude: clamped, longitude: longitude, midnight: midnight)
        let sunset = crossing(rising: false, latitude: clamped, longitude: longitude, midnight: midnight)
        switch (sunrise, sunset) {
        case (.success(let rise), .success(let set)):
            return .crossing(sunrise: instant(midnight, rise), sunset: instant(midnight, set))
        case (.failure(let polar), _), (_, .failure(let polar)):
            return polar.day
        }
    }

    /// Why a crossing has no time: the sun is above (or below) the horizon all the while.
    enum NoCrossing: Error {
        case alwaysAbove, alwaysBelow
        var day: SolarDay { self == .alwaysAbove ? .polarDay : .polarNight }
    }

    /// How close an estimate of a crossing must come to the time it gives to be taken, in
    /// minutes (6 ms).
    static let tolerance = 0.000_1

    /// The most estimates of one crossing made: a bound well above the handful the secant
    /// method needs.
    static let maximumEstimates = 30

    /// The minutes after `midnight` (a Julian Day at 0h UTC) of the sunrise (`rising`) or sunset,
    /// with the sun's declination and the equation of time taken at that instant itself.
    ///
    /// `estimate(m)` is the crossing for the sun where it stands at minute `m`; the crossing is
    /// the `m` that gives itself. NOAA's calculator takes two steps of `m ← estimate(m)`, which
    /// is seconds to minutes off on a day of an hour or two of sun, where a small change of
    /// declination moves the crossing a lot. Here the first estimate takes the sun at the day's
    /// mean solar noon (its highest point tells whether it reaches the horizon at all), the
    /// second at the instant the first gave, and each next one where the line through the last
    /// two values of `estimate(m) − m` meets zero (the secant method), until an estimate gives
    /// itself within `tolerance`.
    static func crossing(rising: Bool, latitude: Double, longitude: Double, midnight: Double)
        -> Result<Double, NoCrossing>
    {
        func estimate(_ minutes: Double) throws(NoCrossing) -> Double {
            let sun = SolarPosition(julianDay: midnight + minutes / 1440)
            let phi = radians(latitude)
            let delta = radians(sun.declination)
            let cosH = (cos(radians(zenith)) - sin(phi) * sin(delta)) / (cos(phi) * cos(delta))
            guard cosH <= 1 else { throw .alwaysBelow }
            guard cosH >= -1 else { throw .alwaysAbove }
            let hourAngle = degrees(acos(cosH)) * (rising ? 1 : -1)
            // Apparent solar noon is 720 minutes after 0h UTC, less 4 minutes a degree east and
            // the equation of time; the hour angle turns at 4 minutes a degree.
            return 720 - 4 * (longitude + hourAngle) - sun.equationOfTime
        }
        do {
            var before = 720 - 4 * longitude  // mean solar noon
            var now = try estimate(before)
            var gapBefore = now - before
            for _ in 0..<maximumEstimates {
                let next = try estimate(now)
                let gap = next - now
                if abs(gap) < tolerance { return .success(next) }
                let secant = gap == gapBefore ? next : now - gap * (now - before) / (gap - gapBefore)
                (before, gapBefore, now) = (now, gap, secant)
            }
            return .success(now)
        } catch {
            return .failure(error)
        }
    }

    /// The instant `minutes` after the Julian Day `midnight`.
    static func instant(_ midnight: Double, _ minutes: Double) -> Date {
        Date(timeIntervalSince1970: (midnight - 2_440_587.5) * 86400 + minutes * 60)
    }
}
