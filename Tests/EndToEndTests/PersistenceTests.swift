import Foundation
import XCTest

/// The active theme survives a crash, and a broken saved state falls back to `default` with a
/// warning (the README's "Installing as a user service").
final class PersistenceTests: EndToEndTestCase {
    var stateFile: String { stateHome + "/livery/state.json" }

    func testSetThemeSurvivesKillNine() throws {
        try startDaemon()
        XCTAssertEqual(try activeTheme(), "default\n")
        try setTheme("crimson")
        daemon.kill9()
        XCTAssertFalse(daemon.isRunning)

        try startDaemon()
        XCTAssertEqual(try activeTheme(), "crimson\n")
        XCTAssertEqual(try resolve("Window/TabBar", "tint-color"), "#800000ff\n")
        // The state file was replaced atomically: no temporary file is left behind.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: stateHome + "/livery")
        XCTAssertEqual(leftovers, ["state.json"])
    }

    func testCorruptedStateFileFallsBackToDefaultWithAWarning() throws {
        try FileManager.default.createDirectory(
            atPath: stateHome + "/livery", withIntermediateDirectories: true)
        try Data([0x7b, 0x22, 0x74, 0x68, 0xff, 0x00, 0x13, 0x37, 0x0a]).write(
            to: URL(fileURLWithPath: stateFile))
        try startDaemon()
        XCTAssertEqual(try activeTheme(), "default\n")
        let warnings = daemon.stderr.split(separator: "\n").filter { $0.hasPrefix("<4>") }
        XCTAssertTrue(
            warnings.contains { $0.contains("state.json") && $0.contains("default") }, daemon.stderr)

        // The daemon keeps working and the next switch repairs the file.
        try setTheme("forest")
        let saved =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: stateFile)))
            as? [String: Any]
        XCTAssertEqual(saved?["theme"] as? String, "forest")
    }

    func testSavedThemeThatIsNoLongerInstalledFallsBackToDefaultWithAWarning() throws {
        try FileManager.default.createDirectory(
            atPath: stateHome + "/livery", withIntermediateDirectories: true)
        try #"{"theme":"vanished"}"#.write(toFile: stateFile, atomically: true, encoding: .utf8)
        try startDaemon()
        XCTAssertEqual(try activeTheme(), "default\n")
        let warnings = daemon.stderr.split(separator: "\n").filter { $0.hasPrefix("<4>") }
        XCTAssertTrue(warnings.contains { $0.contains("vanished") }, daemon.stderr)
    }

    /// A saved theme that has errors at start-up (a palette picture broken since, a sheet
    /// edited while the daemon was stopped) is passed over for `default`, and `livery status`
    /// says so among its problems until a switch, not only the log.
    func testASavedThemeWithErrorsIsAProblemUntilTheNextSwitch() throws {
        let themes = try makeDirectory("themes")
        _ = try writeBundle("broken", in: themes, sheet: "NavigationBar { tint-colour: #123456; }\n")
        try FileManager.default.createDirectory(
            atPath: stateHome + "/livery", withIntermediateDirectories: true)
        try #"{"theme":"broken"}"#.write(toFile: stateFile, atomically: true, encoding: .utf8)
        try startDaemon(extraThemesDirectories: [themes])
        XCTAssertEqual(try activeTheme(), "default\n")
        let status = try livery("status")
        XCTAssertTrue(
            status.stdout.contains("saved theme 'broken' has errors; falling back to 'default'"), "\(status)")
        try setTheme("forest")
        XCTAssertFalse(try livery("status").stdout.contains("saved theme"))
    }
}
