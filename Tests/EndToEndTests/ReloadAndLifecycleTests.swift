import Foundation
import XCTest

/// `Reload` picks up edits on disk, keeps the last good version of a broken active theme, and
/// the daemon goes away with its bus.
final class ReloadAndLifecycleTests: EndToEndTestCase {
    func testReloadPublishesEditsAndKeepsTheLastGoodVersionOfABrokenActiveTheme() throws {
        let themes = try makeDirectory("themes")
        let bundle = try writeBundle("live", in: themes, sheet: "NavigationBar { tint-color: #123456; }\n")
        try startDaemon(extraThemesDirectories: [themes])
        try setTheme("live")
        XCTAssertEqual(try resolve("Window/NavigationBar", "tint-color"), "#123456ff\n")
        let monitor = try startMonitor("type='signal',interface='org.livery.Livery1',member='ThemeChanged'")

        try "NavigationBar { tint-color: #654321; }\n".write(
            toFile: bundle + "/theme.css", atomically: true, encoding: .utf8)
        XCTAssertEqual(try livery("reload").status, 0)
        XCTAssertEqual(try resolve("Window/NavigationBar", "tint-color"), "#654321ff\n")
        XCTAssertEqual(try serial(), 2)
        XCTAssertTrue(waitUntil { monitor.stdout.contains("uint32 2\n") }, monitor.stdout)
        XCTAssertTrue(monitor.stdout.contains("   string \"live\"\n   uint32 2\n"), monitor.stdout)

        // Reloading unchanged files changes nothing and publishes nothing.
        XCTAssertEqual(try livery("reload").status, 0)
        XCTAssertEqual(try serial(), 2)

        try "NavigationBar { tint-color: #zz; }\n".write(
            toFile: bundle + "/theme.css", atomically: true, encoding: .utf8)
        let reload = try livery("reload")
        XCTAssertEqual(reload.status, 0, "\(reload)")
        XCTAssertEqual(try activeTheme(), "live\n")
        XCTAssertEqual(
            try resolve("Window/NavigationBar", "tint-color"), "#654321ff\n", "the last good version stays")
        XCTAssertEqual(try serial(), 2)
        try waitUntilThemesChecked()
        let status = try livery("status", "--json")
        let json = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
        XCTAssertEqual(json?["invalid"] as? [String], ["live"], "\(status)")
        let problems = json?["problems"] as? [String] ?? []
        XCTAssertTrue(
            problems.contains { $0.hasPrefix(bundle + "/theme.css:1:") && $0.contains("#zz") }, "\(status)")

        // A switch away is published, the broken theme cannot come back.
        try setTheme("forest")
        let back = try livery("set", "live")
        XCTAssertEqual(back.status, 1, "\(back)")
        XCTAssertTrue(back.stderr.contains("InvalidTheme"), "\(back)")
        XCTAssertTrue(waitUntil { monitor.stdout.contains("uint32 3\n") }, monitor.stdout)
        XCTAssertEqual(
            monitor.stdout.components(separatedBy: "member=ThemeChanged").count - 1, 2, monitor.stdout)
    }

    func testDaemonExitsWithFailureWhenItsBusGoesAway() throws {
        let daemon = try startDaemon()
        bus.stop()
        XCTAssertTrue(daemon.waitForExit(timeout: 10), "liveryd outlived its bus: \(daemon.stderr)")
        XCTAssertNotEqual(daemon.process.terminationStatus, 0, daemon.stderr)
        XCTAssertTrue(daemon.stderr.split(separator: "\n").contains { $0.hasPrefix("<3>") }, daemon.stderr)
    }

    func testConcurrentSwitchesPublishGaplessSerials() throws {
        try startDaemon()
        let monitor = try startMonitor("type='signal',interface='org.livery.Livery1',member='ThemeChanged'")
        // Sixteen clients at once, alternating between two themes.
        let clients = try (0..<16).map { i in
            try background(
                Locations.livery, ["--address", address, "set", i % 2 == 0 ? "forest" : "crimson"])
        }
        for c in clients {
            XCTAssertTrue(c.waitForExit(timeout: 10))
            XCTAssertEqual(c.process.terminationStatus, 0, c.stderr)
        }
        let final = try serial()
        XCTAssertGreaterThanOrEqual(final, 1)
        XCTAssertTrue(waitUntil { monitor.stdout.contains("uint32 \(final)\n") }, monitor.stdout)
        let serials = monitor.stdout.split(separator: "\n").compactMap { line -> UInt32? in
            let t = line.trimmingCharacters(in: .whitespaces)
            return t.hasPrefix("uint32 ") ? UInt32(t.dropFirst(7)) : nil
        }
        XCTAssertEqual(serials, Array(1...final), "every change published once, in order")
        let active = try activeTheme()
        XCTAssertTrue(["forest\n", "crimson\n"].contains(active))
        let saved = try String(contentsOfFile: stateHome + "/livery/state.json", encoding: .utf8)
        XCTAssertTrue(
            saved.contains("\"\(active.dropLast())\""),
            "state.json \(saved) disagrees with the active \(active)")
    }
}
