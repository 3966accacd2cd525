import Foundation
import LiveryCore

// glibc's timerfd calls (<sys/timerfd.h>), which Swift's Glibc module does not export.
@_silgen_name("timerfd_create") private func sysTimerfdCreate(_ clock: Int32, _ flags: Int32) -> Int32
@_silgen_name("timerfd_settime")
private func sysTimerfdSettime(
    _ fd: Int32, _ flags: Int32, _ new: UnsafePointer<itimerspec>, _ old: UnsafeMutablePointer<itimerspec>?
) -> Int32
/// `TFD_TIMER_ABSTIME` and `TFD_TIMER_CANCEL_ON_SET` (linux/timerfd.h).
private let timerAbsolute: Int32 = 1
private let timerCancelOnSet: Int32 = 2

/// Switches light and dark by the schedule of `config.yaml` (DESIGN §10), on a thread of its own.
///
/// It looks at the clock (`SchedulePlanner`) at start-up, at each transition, and at least once
/// a minute (when the config file or the time zone may have changed), and switches as the
/// planner says through the switch queue, so that a manual switch holds until the next
/// transition, however long `config.yaml` was invalid or without a schedule in between. The wake-up is a `timerfd` on `CLOCK_REALTIME` armed at the next transition with
/// `TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET`: an absolute wall-clock deadline fires at once
/// after a resume that passed it, and setting the clock cancels it (`ECANCELED`), after which
/// the clock is looked at again. Local time is libc's (`SystemTimeZone`: `TZ` in any of its forms,
/// or `/etc/localtime`), read again (`tzset`) at every look.
public final class Scheduler: Sendable {
    let interface: LiveryInterface
    let configFile: String

    /// Seconds between two looks at the least.
    static let period: Double = 60

    /// A scheduler for `interface`'s service, reading `configFile`.
    public init(interface: LiveryInterface, configFile: String) {
        self.interface = interface
        self.configFile = configFile
    }

    /// Starts the thread; it runs for the life of the process.
    public func start() {
        let thread = Thread { [self] in run() }
        thread.name = "livery schedule"
        thread.start()
    }

    private func run() {
        let fd = sysTimerfdCreate(CLOCK_REALTIME, O_CLOEXEC)
        guard fd >= 0 else {
            interface.service.log(.error, "schedule: timerfd_create: \(String(cString: strerror(errno)))")
            return
        }
        var planner = SchedulePlanner()
        var announced: String?
        while true {
            var wake = Date().addingTimeInterval(Scheduler.period)
            var schedule: VariantSchedule?
            if case .success(let config)? = VariantConfig.load(configFile) {
                schedule = config.schedule.map(VariantSchedule.init)
            }
            // Read again at every look (`tzset`): TZ's rule, or /etc/localtime when TZ is unset.
            let zone = SystemTimeZone()
            let (apply, next) = planner.look(at: Date(), timeZone: zone, schedule: schedule)
            if let apply {
                interface.service.log(.info, "schedule: \(apply) now")
                interface.switchVariantLater(apply)
            }
            if let next {
                wake = min(wake, next.date)
                let line = "schedule: next \(next.variant) at \(zone.timestamp(next.date))"
                if announced != line {
                    interface.service.log(.debug, line)
                    announced = line
                }
            }
            var spec = itimerspec()
            let t = wake.timeIntervalSince1970
            spec.it_value.tv_sec = Int(t.rounded(.down))
            spec.it_value.tv_nsec = Int((t - t.rounded(.down)) * 1e9)
            if sysTimerfdSettime(fd, timerAbsolute | timerCancelOnSet, &spec, nil) != 0 {
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
