import Foundation
import LiveryCore

/// Switches light and dark by the schedule of `config.yaml`, on a thread of its own, as
/// darkman does by its location.
///
/// It looks at the clock (`SchedulePlanner`) at start-up, at each transition, and at least once
/// a minute (when the config file or the time zone may have changed), and switches as the
/// planner says through the service's switch queue, so that a manual switch holds until the next
/// transition, however long `config.yaml` was invalid or without a schedule in between. The
/// wake-up is a `timerfd` on `CLOCK_REALTIME` armed at the next transition with
/// `TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET`: an absolute wall-clock deadline fires at once
/// after a resume that passed it, and setting the clock cancels it (`ECANCELED`), after which
/// the clock is looked at again. Local time is libc's (`SystemTimeZone`: `TZ` in any of its forms,
/// or `/etc/localtime`), read again (`tzset`) at every look.
final class Scheduler: Sendable {
    let service: Service

    /// Seconds between two looks at the least.
    static let period: Double = 60

    /// A scheduler switching `service` by its `config.yaml`.
    init(service: Service) {
        self.service = service
    }

    /// Starts the thread; it runs for the life of the process.
    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "livery schedule"
        thread.start()
    }

    private func run() {
        let fd = SystemCalls.timerCreate(CLOCK_REALTIME, O_CLOEXEC)
        guard fd >= 0 else {
            service.log(.error, "schedule: timerfd_create: \(String(cString: strerror(errno)))")
            return
        }
        var planner = SchedulePlanner()
        var announced: String?
        while true {
            var wake = Date().addingTimeInterval(Scheduler.period)
            let schedule = service.themes.config.valid.schedule.map(VariantSchedule.init)
            // Read again at every look (`tzset`): TZ's rule, or /etc/localtime when TZ is unset.
            let zone = SystemTimeZone()
            let (apply, next) = planner.look(at: Date(), timeZone: zone, schedule: schedule)
            if let apply {
                service.log(.info, "schedule: \(apply) now")
                service.setVariant(apply, logsFailure: true)
            }
            if let next {
                wake = min(wake, next.date)
                let line = "schedule: next \(next.variant) at \(zone.timestamp(next.date))"
                if announced != line {
                    service.log(.debug, line)
                    announced = line
                }
            }
            var spec = itimerspec()
            let t = wake.timeIntervalSince1970
            spec.it_value.tv_sec = Int(t.rounded(.down))
            spec.it_value.tv_nsec = Int((t - t.rounded(.down)) * 1e9)
            if SystemCalls.timerSet(fd, SystemCalls.timerAbsolute | SystemCalls.timerCancelOnSet, &spec) != 0
            {
                usleep(1_000_000)
                continue
            }
            var expirations: UInt64 = 0
            // Blocks until the deadline; ECANCELED when the clock was set, EINTR on a signal:
            // either way, look again.
            _ = read(fd, &expirations, 8)
        }
    }
}
