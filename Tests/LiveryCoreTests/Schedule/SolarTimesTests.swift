import Foundation
import XCTest

@testable import LiveryCore

/// `SolarTimes` against the astral package's table in `Tests/Fixtures/sun/reference.json` (made
/// by `make_reference.py` next to it: the instants at which astral's elevation of the sun,
/// taken at the instant itself, crosses NOAA's horizon, on the mean-solar day): every time
/// within two seconds (the table's are rounded to the second), every polar day and night as
/// such, days of an hour or two of sun next to the polar night included.
final class SolarTimesTests: XCTestCase {
    struct Reference: Decodable {
        var cases: [Case]
    }

    struct Case: Decodable {
        var place: String
        var latitude: Double
        var longitude: Double
        var date: String
        var sunrise: String?
        var sunset: String?
        var polar: String?
    }

    static let reference: Reference? = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/sun/reference.json")
        return (try? Data(contentsOf: url)).flatMap { try? JSONDecoder().decode(Reference.self, from: $0) }
    }()

    static func instant(_ s: String) -> Date? { ISO8601DateFormatter().date(from: s) }

    func testEveryReferenceCaseIsWithinTwoSecondsOfAstral() throws {
        let reference = try XCTUnwrap(Self.reference, "Tests/Fixtures/sun/reference.json did not load")
        XCTAssertGreaterThanOrEqual(reference.cases.count, 60)
        var worst = 0.0
        var polar = 0
        var short = 0
        for c in reference.cases {
            let label = "\(c.place) (\(c.latitude), \(c.longitude)) \(c.date)"
            let date = try XCTUnwrap(CalendarDate(iso: c.date), label)
            let day = try SolarTimes.day(latitude: c.latitude, longitude: c.longitude, date: date)
            switch (day, c.polar) {
            case (.polarDay, "day"), (.polarNight, "night"): polar += 1
            case (.crossing(let sunrise, let sunset), nil):
                let rise = try XCTUnwrap(c.sunrise.flatMap(Self.instant), label)
                let set = try XCTUnwrap(c.sunset.flatMap(Self.instant), label)
                if set.timeIntervalSince(rise) < 2 * 3600 { short += 1 }
                for (mine, theirs, what) in [(sunrise, rise, "sunrise"), (sunset, set, "sunset")] {
                    let off = abs(mine.timeIntervalSince(theirs))
                    worst = max(worst, off)
                    XCTAssertLessThanOrEqual(off, 2, "\(label) \(what): \(mine), astral \(theirs)")
                }
            default: XCTFail("\(label): \(day), astral \(c.polar.map { "polar \($0)" } ?? "a crossing")")
            }
        }
        XCTAssertGreaterThanOrEqual(polar, 10, "the table's polar cases")
        XCTAssertGreaterThanOrEqual(short, 8, "the table's days of under two hours of sun")
        print("SolarTimes: \(reference.cases.count) cases, worst deviation from astral \(worst) s")
    }

    func testSunriseComesBeforeSunsetOnBothSidesOfTheDateLine() throws {
        let date = try XCTUnwrap(CalendarDate(iso: "2026-06-21"))
        for longitude in [-180.0, 180] {
            guard
                case .crossing(let rise, let set) = try SolarTimes.day(
                    latitude: 0, longitude: longitude, date: date)
            else { return XCTFail("no crossing at longitude \(longitude)") }
            XCTAssertLessThan(rise, set)
            XCTAssertLessThan(set.timeIntervalSince(rise), 13 * 3600)
        }
    }

    func testPolesAreTakenAsEightyNinePointEightDegrees() throws {
        let date = try XCTUnwrap(CalendarDate(iso: "2026-12-21"))
        XCTAssertEqual(try SolarTimes.day(latitude: 90, longitude: 0, date: date), .polarNight)
        XCTAssertEqual(try SolarTimes.day(latitude: -90, longitude: 0, date: date), .polarDay)
    }

    func testPlacesOutsideTheGlobeAreRefused() {
        let date = CalendarDate(year: 2026, month: 6, day: 21)!
        func error(_ lat: Double, _ lon: Double) -> SolarTimesError? {
            do {
                _ = try SolarTimes.day(latitude: lat, longitude: lon, date: date)
                return nil
            } catch { return error }
        }
        XCTAssertEqual(error(90.5, 0), .latitudeOutOfRange(90.5))
        XCTAssertEqual(error(-91, 0), .latitudeOutOfRange(-91))
        XCTAssertEqual(error(0, 180.01), .longitudeOutOfRange(180.01))
        XCTAssertEqual(error(0, -200), .longitudeOutOfRange(-200))
        if case .latitudeOutOfRange(let v) = error(.nan, 0) {
            XCTAssert(v.isNaN)
        } else {
            XCTFail("NaN taken")
        }
        XCTAssertNil(error(-90, -180))
        XCTAssertNil(error(90, 180))
    }

    func testCalendarDatesAreReadOnlyAsRealDaysInIsoForm() {
        XCTAssertEqual(CalendarDate(iso: "2024-02-29")?.description, "2024-02-29")
        XCTAssertEqual(CalendarDate(iso: "0001-01-01")?.daysSinceEpoch, -719_162)
        XCTAssertEqual(CalendarDate(iso: "1970-01-01")?.julianDay, 2_440_587.5)
        XCTAssertEqual(CalendarDate(iso: "2000-01-01")?.julianDay, 2_451_544.5)
        for bad in [
            "2026-02-29", "1900-02-29", "2026-13-01", "2026-04-31", "0000-01-01", "2026-6-21", "26-06-21",
            "2026-06-21T00:00", "+026-06-21", "２０２６-06-21", "",
        ] {
            XCTAssertNil(CalendarDate(iso: bad), bad)
        }
    }

    func testDaysSinceTheEpochRoundTrip() {
        for days in stride(from: -719_162, through: 2_932_896, by: 997) {
            XCTAssertEqual(CalendarDate(daysSinceEpoch: days)?.daysSinceEpoch, days)
        }
        XCTAssertNil(CalendarDate(daysSinceEpoch: -719_163))
        XCTAssertNil(CalendarDate(daysSinceEpoch: 2_932_897))
    }
}
