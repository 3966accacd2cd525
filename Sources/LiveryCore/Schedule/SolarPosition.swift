import Foundation

/// The sun's declination and the equation of time at one instant, by the equations of the NOAA
/// Solar Calculator's spreadsheet (NOAA Global Monitoring Laboratory, after Meeus, Astronomical
/// Algorithms): Julian century, geometric mean longitude and anomaly, the eccentricity of the
/// Earth's orbit, the equation of centre, the apparent longitude, the corrected obliquity, the
/// declination and the equation of time, each named as its spreadsheet column is.
struct SolarPosition {
    /// The sun's declination, in degrees (north positive).
    let declination: Double
    /// The equation of time: apparent minus mean solar time, in minutes.
    let equationOfTime: Double

    /// The position at Julian Day `julianDay` (UTC, as a fraction of days).
    init(julianDay: Double) {
        let t = (julianDay - 2_451_545) / 36525  // Julian century from J2000.0
        let meanLongitude = (280.46646 + t * (36000.76983 + t * 0.0003032))
            .truncatingRemainder(dividingBy: 360)
        let meanAnomaly = 357.52911 + t * (35999.05029 - 0.0001537 * t)
        let eccentricity = 0.016708634 - t * (0.000042037 + 0.0000001267 * t)
        let m = radians(meanAnomaly)
        let centre =
            sin(m) * (1.914602 - t * (0.004817 + 0.000014 * t)) + sin(2 * m) * (0.019993 - 0.000101 * t)
            + sin(3 * m) * 0.000289
        let trueLongitude = meanLongitude + centre
        let omega = radians(125.04 - 1934.136 * t)
        let apparentLongitude = trueLongitude - 0.00569 - 0.00478 * sin(omega)
        let meanObliquity = 23 + (26 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60) / 60
        let obliquity = radians(meanObliquity + 0.00256 * cos(omega))
        declination = degrees(asin(sin(obliquity) * sin(radians(apparentLongitude))))

        let y = tan(obliquity / 2) * tan(obliquity / 2)
        let l0 = radians(meanLongitude)
        let e = eccentricity
        equationOfTime =
            4
            * degrees(
                y * sin(2 * l0) - 2 * e * sin(m) + 4 * e * y * sin(m) * cos(2 * l0) - 0.5 * y * y
                    * sin(4 * l0)
                    - 1.25 * e * e * sin(2 * m))
    }
}

/// Degrees to radians.
@inline(__always) func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }

/// Radians to degrees.
@inline(__always) func degrees(_ radians: Double) -> Double { radians * 180 / .pi }
