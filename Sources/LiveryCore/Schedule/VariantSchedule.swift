import Foundation

/// When a schedule (`VariantConfig.Schedule`) turns light and dark: at sunrise and
/// sunset of each day at a place (`SolarTimes`), or at two local times of day. Pure: every
/// answer is computed from the instant and the time zone given, so that tests can move the
/// clock and the zone as they like.
public struct VariantSchedule: Sendable, Equatable {
    /// One change of variant.
    public struct Transition: Sendable, Equatable {
        /// When.
        public var date: Date
        /// The variant from then on: `light` or `dark`.
        public var variant: String
    }

    /// The schedule.
    public let schedule: VariantConfig.Schedule

    /// The transitions of `schedule`.
    public init(_ schedule: VariantConfig.Schedule) { self.schedule = schedule }

    /// How far transitions are looked for, in days: a year and a little, past the longest
    /// polar day or night.
    static let horizonDays = 370

    /// The transitions from `start` (included) to `end` (excluded), in order.
    /// - Parameter timeZone: The zone local times are in (a `times` schedule).
    public func transitions(from start: Date, to end: Date, timeZone: some LocalTimeZone) -> [Transition] {
        guard start < end else { return [] }
        var out: [Transition] = []
        switch schedule {
        case .times(let light, let dark):
            // A time that a spring-forward gap skips comes at the first moment after it, a
            // repeated one at its first occurrence (`LocalTimeZone.instant`).
            let first = timeZone.localDay(of: start.addingTimeInterval(-86_400))
            let last = timeZone.localDay(of: end.addingTimeInterval(86_400))
            for day in first...last {
                for (seconds, variant) in [(light, "light"), (dark, "dark")] {
                    out.append(
                        Transition(date: timeZone.instant(day: day, seconds: seconds), variant: variant))
                }
            }
        case .sun(let latitude, let longitude):
            // Each solar day gives its sunrise and sunset; a polar day turns light, and a polar
            // night dark, at the day's start (mean solar midnight), so that a polar night
            // running into a polar day (at the poles) is a transition too. Two days before the
            // window give the variant it starts in, so that a "transition" to the variant already
            // in force is dropped.
            let first = VariantSchedule.solarDay(of: start, longitude: longitude) - 2
            let last = VariantSchedule.solarDay(of: end, longitude: longitude) + 1
            var events: [Transition] = []
            for n in first...last {
                guard let date = CalendarDate(daysSinceEpoch: n),
                    let day = try? SolarTimes.day(latitude: latitude, longitude: longitude, date: date)
                else { continue }
                let midnight = Date(timeIntervalSince1970: Double(n) * 86_400 - longitude / 15 * 3600)
                switch day {
                case .crossing(let sunrise, let sunset):
                    events.append(Transition(date: sunrise, variant: "light"))
                    events.append(Transition(date: sunset, variant: "dark"))
                case .polarDay: events.append(Transition(date: midnight, variant: "light"))
                case .polarNight: events.append(Transition(date: midnight, variant: "dark"))
                }
            }
            events.sort { $0.date < $1.date }
            var previous: String?
            for e in events {
                if e.variant != previous { out.append(e) }
                previous = e.variant
            }
            out.removeFirst(min(out.count, 1))  // its variant before the window is not known
        }
        return out.filter { $0.date >= start && $0.date < end }.sorted { $0.date < $1.date }
    }

    /// The day number (since 1970-01-01) of `date` in the mean solar time of `longitude`.
    static func solarDay(of date: Date, longitude: Double) -> Int {
        Int(((date.timeIntervalSince1970 + longitude / 15 * 3600) / 86_400).rounded(.down))
    }

    /// The variant the schedule says at `now`: light on a polar day and dark in a polar night
    /// (the sun does not cross the horizon today, whatever it did before), else that of the
    /// last transition before `now` (dark when there is none within a year).
    public func variant(at now: Date, timeZone: some LocalTimeZone) -> String {
        if case .sun(let latitude, let longitude) = schedule,
            let date = CalendarDate(daysSinceEpoch: VariantSchedule.solarDay(of: now, longitude: longitude)),
            let day = try? SolarTimes.day(latitude: latitude, longitude: longitude, date: date)
        {
            switch day {
            case .polarDay: return "light"
            case .polarNight: return "dark"
            case .crossing: break
            }
        }
        let past = transitions(
            from: now.addingTimeInterval(-Double(VariantSchedule.horizonDays) * 86_400),
            to: now.addingTimeInterval(0.000_001), timeZone: timeZone)
        return past.last?.variant ?? "dark"
    }

    /// The first transition after `now`, within a year; nil when there is none.
    public func next(after now: Date, timeZone: some LocalTimeZone) -> Transition? {
        var from = now.addingTimeInterval(0.000_001)
        // A day at a time first, which is what almost every call needs.
        for span in [2.0, Double(VariantSchedule.horizonDays)] {
            let end = now.addingTimeInterval(span * 86_400)
            if let t = transitions(from: from, to: end, timeZone: timeZone).first { return t }
            from = end
        }
        return nil
    }
}

/// Decides, each time the clock is looked at, whether the schedule switches the variant
/// (a manual switch holds until the next transition): at start-up (the first look) it applies the variant the schedule says; after
/// that only when a transition lies between the last look and this one, forwards or backwards
/// (a timer that fired, a resume after suspend, a clock or time-zone change), so that a manual
/// switch holds until the next transition. A look with no valid schedule (`config.yaml` absent,
/// invalid, or without `schedule:`) changes nothing, its memory included.
public struct SchedulePlanner: Sendable {
    /// The last instant looked at.
    public private(set) var lastLook: Date?
    /// The schedule at the last look, and the variant it said then.
    var lastSchedule: VariantSchedule?
    var lastScheduled: String?

    /// A planner that has not looked yet.
    public init() {}

    /// Looks at the clock.
    /// - Parameters:
    ///   - now: The time now.
    ///   - timeZone: The local time zone now.
    ///   - schedule: The schedule now; nil when there is no valid one.
    /// - Returns: The variant to switch to (nil: leave the active one), and the next
    ///   transition to wake at (nil with no schedule).
    public mutating func look(at now: Date, timeZone: some LocalTimeZone, schedule: VariantSchedule?)
        -> (apply: String?, next: VariantSchedule.Transition?)
    {
        // An invalid or absent schedule is not a start-up when it comes back: the last look
        // stays the last, so a manual switch still holds until the next transition.
        guard let schedule else { return (nil, nil) }
        let scheduled = schedule.variant(at: now, timeZone: timeZone)
        defer {
            lastLook = now
            lastSchedule = schedule
            lastScheduled = scheduled
        }
        let next = schedule.next(after: now, timeZone: timeZone)
        guard let last = lastLook else { return (scheduled, next) }
        let (a, b) = now >= last ? (last, now) : (now, last)
        let crossed = !schedule.transitions(
            from: a.addingTimeInterval(0.000_001), to: b.addingTimeInterval(0.000_001), timeZone: timeZone
        ).isEmpty
        // A new zone moves local times: when the same schedule, read in the zone of now, says
        // another variant at the last look than it said then, the zone changed it, and that is
        // a transition too. (An edited schedule is not: it holds a manual switch.)
        let moved =
            !crossed && schedule == lastSchedule
            && schedule.variant(at: last, timeZone: timeZone) != lastScheduled
        return (crossed || moved ? scheduled : nil, next)
    }
}
