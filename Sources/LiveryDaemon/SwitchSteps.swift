import Foundation

/// The time each step of a switch took, for the debug log (`bench/README.md`, "Watching").
struct SwitchSteps {
    private var last = DispatchTime.now().uptimeNanoseconds
    private var steps: [(name: String, nanoseconds: UInt64)] = []

    /// Ends the step `name` now.
    /// - Returns: every step so far, `name 0.123 ms, …`.
    @discardableResult
    mutating func mark(_ name: String) -> String {
        let now = DispatchTime.now().uptimeNanoseconds
        steps.append((name, now - last))
        last = now
        return steps.map { "\($0.name) \(String(format: "%.3f", Double($0.nanoseconds) / 1e6)) ms" }
            .joined(separator: ", ")
    }
}
