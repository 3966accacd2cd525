import Foundation
import XCTest

@testable import LiveryCore

/// The schedule through an injected clock: the planner is given each instant and zone (libc's,
/// with `TZ` set for the test).
final class SchedulePlannerTests: XCTestCase {
    let amsterdam = VariantSchedule(.sun(latitude: 52.37, longitude: 4.89))
    let tz = ProcessTZ()
    var utc = SystemTimeZone()

    override func setUp() { utc = tz.set("UTC0") }
    override func tearDown() { tz.restore() }

    func at(_ iso: String) -> Date { ISO8601DateFormatter().date(from: iso)! }

    /// Midsummer in Amsterdam, from the NOAA equations (SolarTimesTests checks them against
    /// astral).
    func sunset() throws -> Date {
        guard
            case .crossing(_, let sunset) = try SolarTimes.day(
                latitude: 52.37, longitude: 4.89, date: CalendarDate(year: 2026, month: 6, day: 21)!)
        else {
            XCTFail("Amsterdam at midsummer has a sunrise and a sunset")
            return Date.distantPast
        }
        return sunset
    }

    func testStartUpAppliesTheScheduledVariantAndSunsetTurnsDark() throws {
        var planner = SchedulePlanner()
        let sunset = try sunset()
        let first = planner.look(at: at("2026-06-21T12:00:00Z"), timeZone: utc, schedule: amsterdam)
        XCTAssertEqual(first.apply, "light", "at start-up, what the schedule says now")
        XCTAssertEqual(first.next, VariantSchedule.Transition(date: sunset, variant: "dark"))
        XCTAssertNil(
            planner.look(at: sunset.addingTimeInterval(-1), timeZone: utc, schedule: amsterdam).apply)
        XCTAssertEqual(
            planner.look(at: sunset.addingTimeInterval(1), timeZone: utc, schedule: amsterdam).apply, "dark")
    }

    /// A manual switch holds: looking again with no transition in between applies nothing,
    /// whatever the active variant is; the next transition applies the schedule again.
    func testAManualSwitchHoldsUntilTheNextTransition() throws {
        var planner = SchedulePlanner()
        _ = planner.look(at: at("2026-06-21T12:00:00Z"), timeZone: utc, schedule: amsterdam)
        // (the user switches to dark by hand here)
        XCTAssertNil(planner.look(at: at("2026-06-21T13:00:00Z"), timeZone: utc, schedule: amsterdam).apply)
        XCTAssertNil(planner.look(at: at("2026-06-21T15:00:00Z"), timeZone: utc, schedule: amsterdam).apply)
        let sunset = try sunset()
        XCTAssertEqual(
            planner.look(at: sunset.addingTimeInterval(5), timeZone: utc, schedule: amsterdam).apply, "dark")
    }

    /// A `config.yaml` that is invalid or has no schedule for a while (a typo saved, then fixed)
    /// leaves the planner's memory alone: the look after it is not a start-up, so a manual
    /// switch made before still holds, and the next transition still applies.
    func testAManualSwitchHoldsAcrossAnInvalidOrAbsentSchedule() throws {
        var planner = SchedulePlanner()
        let sunset = try sunset()
        let evening = sunset.addingTimeInterval(3600)
        XCTAssertEqual(planner.look(at: evening, timeZone: utc, schedule: amsterdam).apply, "dark")
        // (the user switches to light by hand here, then saves config.yaml with a typo)
        let broken = planner.look(at: evening.addingTimeInterval(60), timeZone: utc, schedule: nil)
        XCTAssertNil(broken.apply)
        XCTAssertNil(broken.next, "no schedule: nothing to wake for")
        XCTAssertNil(
            planner.look(at: evening.addingTimeInterval(120), timeZone: utc, schedule: amsterdam).apply,
            "the schedule is valid again: the manual light holds")
        // The same with the schedule taken out of the file and put back.
        _ = planner.look(at: evening.addingTimeInterval(180), timeZone: utc, schedule: nil)
        _ = planner.look(at: evening.addingTimeInterval(240), timeZone: utc, schedule: nil)
        XCTAssertNil(
            planner.look(at: evening.addingTimeInterval(300), timeZone: utc, schedule: amsterdam).apply)
        guard
            case .crossing(let sunrise, _) = try SolarTimes.day(
                latitude: 52.37, longitude: 4.89, date: CalendarDate(year: 2026, month: 6, day: 22)!)
        else { return XCTFail("Amsterdam at midsummer has a sunrise") }
        XCTAssertEqual(
            planner.look(at: sunrise.addingTimeInterval(5), timeZone: utc, schedule: amsterdam).apply, "light"
        )
    }

    /// A transition that passes while the file is invalid applies at the first valid look after.
    func testATransitionWhileTheScheduleIsInvalidAppliesWhenItIsValidAgain() throws {
        var planner = SchedulePlanner()
        let sunset = try sunset()
        XCTAssertEqual(
            planner.look(at: sunset.addingTimeInterval(-600), timeZone: utc, schedule: amsterdam).apply,
            "light")
        _ = planner.look(at: sunset.addingTimeInterval(-60), timeZone: utc, schedule: nil)
        XCTAssertEqual(
            planner.look(at: sunset.addingTimeInterval(60), timeZone: utc, schedule: amsterdam).apply, "dark")
    }

    func testClockJumpsForwardPastATransitionAndBack() throws {
        var planner = SchedulePlanner()
        _ = planner.look(at: at("2026-06-21T12:00:00Z"), timeZone: utc, schedule: amsterdam)
        XCTAssertEqual(
            planner.look(at: at("2026-06-21T23:00:00Z"), timeZone: utc, schedule: amsterdam).apply, "dark")
        // The clock is set back before sunset: the transition is crossed backwards.
        XCTAssertEqual(
            planner.look(at: at("2026-06-21T12:00:00Z"), timeZone: utc, schedule: amsterdam).apply, "light")
    }

    /// Resume after eight hours of suspend that crossed two transitions: the variant of now.
    func testResumeAfterEightHours() {
        let times = VariantSchedule(.times(light: 7 * 3600, dark: 8 * 3600))
        var planner = SchedulePlanner()
        XCTAssertEqual(
            planner.look(at: at("2026-12-01T06:00:00Z"), timeZone: utc, schedule: times).apply, "dark")
        XCTAssertEqual(
            planner.look(at: at("2026-12-01T14:00:00Z"), timeZone: utc, schedule: times).apply, "dark")
        XCTAssertEqual(
            planner.look(at: at("2026-12-01T14:00:00Z"), timeZone: utc, schedule: times).next?.date,
            at("2026-12-02T07:00:00Z"))
    }

    /// Local times follow a time-zone change: 18:30 UTC is light before 19:00, but 19:30 in
    /// UTC+1 is dark.
    func testATimeZoneChangeMovesTheTimes() {
        let times = VariantSchedule(.times(light: 7 * 3600, dark: 19 * 3600))
        var planner = SchedulePlanner()
        let now = at("2026-12-01T18:30:00Z")
        XCTAssertEqual(planner.look(at: now, timeZone: utc, schedule: times).apply, "light")
        let plusOne = tz.set("<+01>-1")
        XCTAssertEqual(planner.look(at: now, timeZone: plusOne, schedule: times).apply, "dark")
        XCTAssertEqual(
            planner.look(at: now, timeZone: plusOne, schedule: times).next,
            VariantSchedule.Transition(date: at("2026-12-02T06:00:00Z"), variant: "light"))
    }

    /// Polar day and night: Tromsø at midsummer is light all day, at midwinter dark, and the
    /// next transition is weeks away.
    func testPolarDayAndNight() {
        let tromso = VariantSchedule(.sun(latitude: 69.65, longitude: 18.96))
        XCTAssertEqual(tromso.variant(at: at("2026-06-21T00:00:00Z"), timeZone: utc), "light")
        XCTAssertEqual(tromso.variant(at: at("2026-12-21T12:00:00Z"), timeZone: utc), "dark")
        let next = tromso.next(after: at("2026-12-21T12:00:00Z"), timeZone: utc)
        XCTAssertEqual(next?.variant, "light")
        XCTAssertGreaterThan(next!.date, at("2027-01-10T00:00:00Z"))
    }

    /// A local time that a spring-forward gap skips comes right after the gap.
    func testATimeInTheSpringForwardGap() {
        let berlin = tz.set("Europe/Berlin")
        let times = VariantSchedule(.times(light: 2 * 3600 + 30 * 60, dark: 20 * 3600))
        let t = times.next(after: at("2026-03-28T23:00:00Z"), timeZone: berlin)
        XCTAssertEqual(t, VariantSchedule.Transition(date: at("2026-03-29T01:00:00Z"), variant: "light"))
    }

    /// At the poles a polar night runs into a polar day with no sunrise between: that is a
    /// transition too, at the start of the first polar day (found by a newcomer's trial: the
    /// North Pole's next light was put in September). And no transition goes to the variant
    /// already in force.
    func testPolarNightIntoPolarDayIsATransition() {
        let pole = VariantSchedule(.sun(latitude: 90, longitude: 0))
        let now = at("2026-12-01T12:00:00Z")
        XCTAssertEqual(pole.variant(at: now, timeZone: utc), "dark")
        let next = pole.next(after: now, timeZone: utc)
        XCTAssertEqual(next?.variant, "light")
        // The sun's centre reaches −0.833° at the pole a day or two before the equinox.
        XCTAssertGreaterThan(next!.date, at("2027-03-14T00:00:00Z"))
        XCTAssertLessThan(next!.date, at("2027-03-22T00:00:00Z"))
        let south = VariantSchedule(.sun(latitude: -90, longitude: 0))
        XCTAssertEqual(south.variant(at: now, timeZone: utc), "light")
        XCTAssertEqual(south.next(after: now, timeZone: utc)?.variant, "dark")
        // McMurdo-like -78°: each transition changes the variant.
        let ross = VariantSchedule(.sun(latitude: -78, longitude: 0))
        let year = ross.transitions(from: now, to: now.addingTimeInterval(365 * 86_400), timeZone: utc)
        XCTAssertFalse(year.isEmpty)
        XCTAssertNotEqual(year.first?.variant, ross.variant(at: now, timeZone: utc))
        for (a, b) in zip(year, year.dropFirst()) {
            XCTAssertNotEqual(a.variant, b.variant, "\(a) then \(b)")
        }
    }
}
