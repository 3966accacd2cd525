import Foundation
import XCTest

@testable import LiveryDaemon
@testable import LiveryService

/// The installed themes are checked by one thread at a time, however many reloads come while
/// it runs (a thread per reload held dozens of large compiles at once under live reload).
final class ThemeCheckingTests: XCTestCase {
    /// The threads of this process (Linux: /proc/self/task).
    func threads() -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []).count
    }

    func testOneCheckerRunsHoweverManyReloadsComeAndTheLastScanIsChecked() throws {
        let scratch = try Scratch()
        // Themes that take a while to check (a 2,000-selector list each), so that the reloads
        // below come while a check runs.
        let block = "Button" + String(repeating: ", Button", count: 4999) + " { alpha: 0.5; }\n"
        for i in 0..<20 { try scratch.write(String(format: "slow%02d.css", i), block) }
        let service = try scratch.service()
        XCTAssertTrue(service.waitUntilChecked(timeout: 120))
        let before = threads()
        var most = 0
        for _ in 0..<40 {
            _ = service.reload()
            most = max(most, threads() - before)
        }
        // A theme added by the last reload's scan is checked too.
        try scratch.write("late.css", "Button { alpha: 0.25; }\n")
        _ = service.reload()
        most = max(most, threads() - before)
        XCTAssertTrue(service.waitUntilChecked(timeout: 120), "the checks never finished")
        // One checker thread more than before, and a thread or two of Dispatch's: not one per
        // reload.
        XCTAssertLessThanOrEqual(most, 3, "threads more than before the reloads")
        // The first check, and at most one more for a reload that came as it finished: not 42.
        XCTAssertLessThanOrEqual(service.checkerThreadsStarted, 3)
        let listed = service.listThemes()
        XCTAssertTrue(listed.allSatisfy(\.checked), "\(listed.filter { !$0.checked }.map(\.metadata.id))")
        XCTAssertEqual(listed.first { $0.metadata.id == "late" }?.valid, true)
        XCTAssertEqual(listed.filter { $0.metadata.id.hasPrefix("slow") && $0.valid }.count, 20)
    }
}
