import Foundation
import XCTest

@testable import LiveryCore

/// Sets this process's `TZ` for a test (libc reads it at `SystemTimeZone()`) and puts the old
/// value back at `restore()`.
final class ProcessTZ {
    private let saved = ProcessInfo.processInfo.environment["TZ"]

    /// The zone libc has with `TZ=value` (unset for nil).
    func set(_ value: String?) -> SystemTimeZone {
        if let value { setenv("TZ", value, 1) } else { unsetenv("TZ") }
        return SystemTimeZone()
    }

    func restore() { _ = set(saved) }
}

/// `SystemTimeZone`, libc's local time, under each form of `TZ`, against the offsets written
/// by hand from the POSIX rules (POSIX.1-2017, 8.3: `Mm.w.d` is day `d` (0 Sunday) of week `w`
/// (5 the last) of month `m`; `/time` the local time of the change, 02:00 when not given).
final class LocalTimeZoneTests: XCTestCase {
    let tz = ProcessTZ()
    override func tearDown() { tz.restore() }

    func at(_ iso: String) -> Date { ISO8601DateFormatter().date(from: iso)! }

    /// Seconds east of UTC just before and at `iso`.
    func offsets(_ zone: SystemTimeZone, around iso: String) -> [Int] {
        let t = at(iso)
        return [zone.secondsFromUTC(at: t.addingTimeInterval(-1)), zone.secondsFromUTC(at: t)]
    }

    /// CET-1CEST,M3.5.0,M10.5.0/3: UTC+1, and UTC+2 from the last Sunday of March at 02:00
    /// local (2026-03-29, 01:00Z) to the last Sunday of October at 03:00 local (2026-10-25,
    /// 01:00Z). The zone file Europe/Berlin says the same, with and without the leading ':'.
    func testCentralEuropeanRule() {
        for value in ["CET-1CEST,M3.5.0,M10.5.0/3", "Europe/Berlin", ":Europe/Berlin"] {
            let zone = tz.set(value)
            XCTAssertEqual(offsets(zone, around: "2026-03-29T01:00:00Z"), [3600, 7200], value)
            XCTAssertEqual(offsets(zone, around: "2026-10-25T01:00:00Z"), [7200, 3600], value)
        }
    }

    /// EST5EDT,M3.2.0/2,M11.1.0/2: UTC−5, and UTC−4 from the second Sunday of March at 02:00
    /// EST (2026-03-08, 07:00Z) to the first Sunday of November at 02:00 EDT (2026-11-01,
    /// 06:00Z).
    func testEasternRule() {
        let zone = tz.set("EST5EDT,M3.2.0/2,M11.1.0/2")
        XCTAssertEqual(offsets(zone, around: "2026-03-08T07:00:00Z"), [-18000, -14400])
        XCTAssertEqual(offsets(zone, around: "2026-11-01T06:00:00Z"), [-14400, -18000])
    }

    /// `<+14>-14`: a quoted name and UTC+14 all year (POSIX offsets count west positive).
    func testQuotedNameFourteenHoursEast() {
        let zone = tz.set("<+14>-14")
        for iso in ["2026-01-01T00:00:00Z", "2026-07-01T12:00:00Z"] {
            XCTAssertEqual(zone.secondsFromUTC(at: at(iso)), 50400, iso)
        }
        XCTAssertEqual(zone.localDate(of: at("2026-12-01T10:00:00Z"))?.description, "2026-12-02")
        XCTAssertEqual(zone.localDate(of: at("2026-12-01T09:59:59Z"))?.description, "2026-12-01")
        XCTAssertEqual(zone.timestamp(at("2026-12-01T17:00:00Z")), "2026-12-02T07:00:00+14:00")
        XCTAssertEqual(
            tz.set("<-0330>3:30").timestamp(at("2026-12-01T17:00:00Z")), "2026-12-01T13:30:00-03:30")
        XCTAssertEqual(tz.set("UTC0").timestamp(Date(timeIntervalSince1970: -0.5)), "1969-12-31T23:59:59Z")
    }

    /// A local time of a day: the instant of an ordinary one, the first of a repeated one, the
    /// end of the gap for a skipped one.
    func testTheInstantOfALocalTime() throws {
        func instant(_ zone: SystemTimeZone, _ date: String, _ h: Int, _ m: Int) throws -> Date {
            zone.instant(
                day: try XCTUnwrap(CalendarDate(iso: date)).daysSinceEpoch, seconds: h * 3600 + m * 60)
        }
        let cet = tz.set("CET-1CEST,M3.5.0,M10.5.0/3")
        XCTAssertEqual(try instant(cet, "2026-03-28", 7, 0), at("2026-03-28T06:00:00Z"))
        XCTAssertEqual(try instant(cet, "2026-03-29", 7, 0), at("2026-03-29T05:00:00Z"))
        XCTAssertEqual(
            try instant(cet, "2026-03-29", 2, 30), at("2026-03-29T01:00:00Z"), "skipped: 03:00 CEST")
        XCTAssertEqual(
            try instant(cet, "2026-10-25", 2, 30), at("2026-10-25T00:30:00Z"), "repeated: the CEST one")
        let eastern = tz.set("EST5EDT,M3.2.0/2,M11.1.0/2")
        XCTAssertEqual(
            try instant(eastern, "2026-03-08", 2, 30), at("2026-03-08T07:00:00Z"), "skipped: 03:00 EDT")
        XCTAssertEqual(
            try instant(eastern, "2026-11-01", 1, 30), at("2026-11-01T05:30:00Z"), "repeated: the EDT one")
        XCTAssertEqual(try instant(eastern, "2026-11-01", 19, 0), at("2026-11-02T00:00:00Z"))
        let kiribati = tz.set("<+14>-14")
        XCTAssertEqual(try instant(kiribati, "2026-12-02", 7, 0), at("2026-12-01T17:00:00Z"))
    }

    /// A `times` schedule in these zones: the transitions are the local times of each day.
    func testATimesScheduleUnderPosixRules() {
        let times = VariantSchedule(.times(light: 7 * 3600, dark: 19 * 3600))
        let cet = tz.set("CET-1CEST,M3.5.0,M10.5.0/3")
        XCTAssertEqual(
            times.transitions(
                from: at("2026-03-28T12:00:00Z"), to: at("2026-03-29T12:00:00Z"), timeZone: cet),
            [
                .init(date: at("2026-03-28T18:00:00Z"), variant: "dark"),
                .init(date: at("2026-03-29T05:00:00Z"), variant: "light"),
            ])
        let kiribati = tz.set("<+14>-14")
        XCTAssertEqual(
            times.next(after: at("2026-12-01T12:00:00Z"), timeZone: kiribati),
            .init(date: at("2026-12-01T17:00:00Z"), variant: "light"))
        XCTAssertEqual(times.variant(at: at("2026-12-01T16:59:59Z"), timeZone: kiribati), "dark")
        XCTAssertEqual(times.variant(at: at("2026-12-01T17:00:00Z"), timeZone: kiribati), "light")
    }
}
