import Foundation
import XCTest

/// A switch back to a recently active, unchanged theme is a commit, whichever kind of switch it
/// is: liveryd's per-step log (`--log-level debug`) says `kept` instead of reading and compiling.
final class SwitchBackTests: EndToEndTestCase {
    private func writeConfig(_ text: String) throws {
        try FileManager.default.createDirectory(
            atPath: configHome + "/livery", withIntermediateDirectories: true)
        try text.write(toFile: configHome + "/livery/config.yaml", atomically: true, encoding: .utf8)
    }

    /// The per-step log lines of the switches to `id` so far.
    private func steps(_ id: String) -> [Substring] {
        daemon.stderr.split(separator: "\n").filter { $0.contains("switch to '\(id)': ") }
    }

    func testSetThemeToggleAndDarkmansModeUseTheKeptCompile() throws {
        try writeConfig("light: forest\ndark: default-dark\n")
        try startDaemon(arguments: ["--log-level", "debug"])
        try setTheme("default-dark")
        try setTheme("forest")
        XCTAssertEqual(steps("forest").count, 1)
        XCTAssertFalse(steps("forest")[0].contains(" kept "), "\(steps("forest"))")
        try setTheme("default-dark")
        XCTAssertEqual(try livery("toggle").stdout, "forest\n")
        let darkman = "nl.whynothugo.darkman"
        let set = try busctl([
            "set-property", darkman, "/nl/whynothugo/darkman", darkman, "Mode", "s", "dark",
        ])
        XCTAssertEqual(set.status, 0, "\(set)")
        XCTAssertTrue(try waitUntil { try livery("get").stdout == "default-dark\n" }, daemon.stderr)
        XCTAssertTrue(try waitUntil { steps("default-dark").count == 3 }, daemon.stderr)
        // SetTheme, then darkman's Mode; Toggle to forest.
        XCTAssertEqual(
            steps("default-dark").map { $0.contains(" kept ") }, [false, true, true], daemon.stderr)
        XCTAssertEqual(steps("forest").map { $0.contains(" kept ") }, [false, true], daemon.stderr)
    }

    /// The schedule switches to dark by itself, a few seconds ahead: to the dark theme switched
    /// away from before, with its kept compile.
    func testTheScheduleUsesTheKeptCompile() throws {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        formatter.timeZone = TimeZone.current
        let now = Date()
        let light = formatter.string(from: now.addingTimeInterval(-3600))
        let dark = formatter.string(from: now.addingTimeInterval(20))
        try writeConfig(
            "light: forest\ndark: default-dark\nschedule:\n  light: \"\(light)\"\n  dark: \"\(dark)\"\n")
        try startDaemon(arguments: ["--log-level", "debug"])
        try setTheme("default-dark")
        try setTheme("forest")
        XCTAssertTrue(
            waitUntil(timeout: 40) { steps("default-dark").count == 2 },
            "no switch at \(dark):\n\(daemon.stderr)")
        XCTAssertTrue(daemon.stderr.contains("schedule: dark now"), daemon.stderr)
        XCTAssertEqual(steps("default-dark").map { $0.contains(" kept ") }, [false, true], daemon.stderr)
        XCTAssertEqual(try livery("get").stdout, "default-dark\n")
    }
}
