import Foundation
import LiveryAPI
import LiveryCore

/// `livery schedule [--json]`: the schedule of `config.yaml`, the variant it says now and its
/// next two transitions, in local time as libc reads `TZ` (`SystemTimeZone`), with no daemon
/// (the daemon follows the same file and rule). Exit 0; 1 when the file has errors (its diagnostics on standard error).
func schedule(_ inv: Invocation, output: Output) -> Int32 {
    let file = Paths().configFile
    var config = VariantConfig()
    switch VariantConfig.load(file) {
    case .failure(let e)?:
        for d in e.diagnostics { output.err(d.rendered + "\n") }
        return 1
    case .success(let c)?: config = c
    case nil: break
    }
    guard let schedule = config.schedule else {
        if inv.json {
            output.out(jsonLine(["schedule": NSNull()]))
        } else {
            output.out(
                "no schedule in \(file) (add 'schedule:' with latitude and longitude, or light and dark times)\n"
            )
        }
        return 0
    }
    let zone = SystemTimeZone()
    let plan = VariantSchedule(schedule)
    let now = Date()
    var transitions: [VariantSchedule.Transition] = []
    var from = now
    while transitions.count < 2, let t = plan.next(after: from, timeZone: zone) {
        transitions.append(t)
        from = t.date
    }
    let described: String
    var object: [String: Any] = [:]
    switch schedule {
    case .sun(let lat, let lon):
        described = "light at sunrise, dark at sunset at latitude \(lat), longitude \(lon)"
        object = ["latitude": lat, "longitude": lon]
    case .times(let light, let dark):
        func clock(_ s: Int) -> String { String(format: "%02d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) }
        described = "light at \(clock(light)), dark at \(clock(dark)) (local time)"
        object = ["light": clock(light), "dark": clock(dark)]
    }
    let variant = plan.variant(at: now, timeZone: zone)
    if inv.json {
        output.out(
            jsonLine([
                "schedule": object, "now": variant,
                "transitions": transitions.map { ["variant": $0.variant, "at": zone.timestamp($0.date)] },
            ]))
        return 0
    }
    output.out("schedule: \(described)\nnow: \(variant)\n")
    for (i, t) in transitions.enumerated() {
        output.out("\(i == 0 ? "next" : "then"): \(t.variant) at \(zone.timestamp(t.date))\n")
    }
    if transitions.isEmpty { output.out("next: none within a year\n") }
    return 0
}
