import Foundation
import LiveryCore
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

    /// A theme added while the daemon runs is listed before its check ends (here its palette
    /// picture is still being decoded) with what its sheets declare: its name, and the variant it
    /// inherits from `default-dark`; not its id and `light` until the check is done.
    func testAThemeBeingCheckedIsListedWithItsDeclaredNameAndVariant() throws {
        let scratch = try Scratch()
        let entered = DispatchSemaphore(value: 0)
        let gate = Gate()
        var configuration = ThemeService.Configuration(
            searchPath: [scratch.themes.path, shippedThemes], stateFile: scratch.stateFile,
            overridesFile: scratch.overridesFile)
        configuration.pictures = PalettePictures { _ in
            entered.signal()
            gate.pass()
            return .success(.init(argb: [0xff00_00ff], width: 1, height: 1))
        }
        let service = try ThemeService(
            configuration: configuration, log: Log(threshold: .error, sink: { _ in }))
        defer { gate.open() }
        XCTAssertTrue(service.waitUntilChecked(timeout: 60))
        try scratch.write(
            "sunset/theme.css",
            "@theme { name: \"Sunset\"; inherits: \"default-dark\"; palette-from: url(\"wall.png\"); }\n")
        try Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]).write(
            to: scratch.themes.appendingPathComponent("sunset/wall.png"))
        _ = service.reload()
        XCTAssertEqual(entered.wait(timeout: .now() + 60), .success, "the picture was never read")
        let listed = try XCTUnwrap(service.listThemes().first { $0.metadata.id == "sunset" })
        XCTAssertFalse(listed.checked)
        XCTAssertEqual(listed.metadata.name, "Sunset")
        XCTAssertEqual(listed.metadata.variant, "dark")
        gate.open()
        XCTAssertTrue(service.waitUntilChecked(timeout: 60))
        let checked = try XCTUnwrap(service.listThemes().first { $0.metadata.id == "sunset" })
        XCTAssertTrue(checked.checked)
        XCTAssertTrue(checked.valid, "\(checked.errors)")
        XCTAssertEqual(checked.metadata.variant, "dark")
    }
}

/// A gate threads wait at until it is opened, once for all.
final class Gate: @unchecked Sendable {
    private let condition = NSCondition()
    private var isOpen = false

    /// Returns once the gate is open.
    func pass() {
        condition.lock()
        while !isOpen { condition.wait() }
        condition.unlock()
    }

    func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }
}
