import Foundation

/// The time each step of a switch took, for the debug log (`bench/README.md`, "Watching").
/// Marking only reads the clock; the text is made once, at the end.
struct SwitchSteps {
    private var last: UInt64
    private var steps: [(name: StaticString, nanoseconds: UInt64)] = []

    /// Steps from now, or from `start` (`DispatchTime` uptime nanoseconds) when given: the
    /// first step then ends at the first mark.
    init(since start: UInt64? = nil) {
        last = start ?? DispatchTime.now().uptimeNanoseconds
    }

    /// Ends the step `name` now.
    mutating func mark(_ name: StaticString) {
        let now = DispatchTime.now().uptimeNanoseconds
        steps.append((name, now - last))
        last = now
    }

    /// Every step so far, `name 0.123 ms, …`.
    var summary: String {
        steps.map { step in
            let micro = step.nanoseconds / 1000
            let fraction = String(micro % 1000)
            return
                "\(step.name) \(micro / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction) ms"
        }.joined(separator: ", ")
    }
}
