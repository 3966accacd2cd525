import Foundation
import XCTest

/// What a newcomer's trial broke, through the real programs.
final class NewcomerFindingsTests: EndToEndTestCase {
    func testProblemsPropertySignalsWhenOverridesBreakAndHeal() throws {
        try startDaemon()
        let monitor = try startMonitor(
            "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'")
        try FileManager.default.createDirectory(
            atPath: configHome + "/livery", withIntermediateDirectories: true)
        try "Button { tint-colr: red; }\n".write(
            toFile: configHome + "/livery/overrides.css", atomically: true, encoding: .utf8)
        XCTAssertTrue(
            waitUntil {
                monitor.stdout.contains("string \"Problems\"") && monitor.stdout.contains("tint-colr")
            },
            "no PropertiesChanged for Problems: \(monitor.stdout)\n\(daemon.stderr)")
        try FileManager.default.removeItem(atPath: configHome + "/livery/overrides.css")
        XCTAssertTrue(
            waitUntil {
                let parts = monitor.stdout.components(separatedBy: "string \"Problems\"")
                return parts.count == 3
                    && parts[2].hasPrefix("\n         variant             array [\n            ]\n")
            }, monitor.stdout)
    }

    func testWatchEndsWithAnErrorWhenTheDaemonLeaves() throws {
        try startDaemon()
        let watch = try background(Locations.livery, ["--address", address, "watch", "Window/TabBar"])
        var switches = 0
        XCTAssertTrue(
            try waitUntil {
                switches += 1
                try setTheme(switches % 2 == 1 ? "crimson" : "forest")
                return waitUntil(timeout: 0.5) { watch.stdout.contains("Window/TabBar tint-color") }
            }, watch.stderr)
        daemon.stop()
        XCTAssertTrue(watch.waitForExit(timeout: 10), "watch kept running after liveryd left")
        XCTAssertEqual(watch.process.terminationStatus, 1)
        XCTAssertEqual(watch.stderr, "livery: liveryd left the bus; watch ended\n")
    }

    func testWatchJsonNamesTheSubscriptionOfEveryChange() throws {
        try startDaemon()
        let watch = try background(
            Locations.livery,
            ["--address", address, "watch", "Window/TabBar", "--property", "tint-color", "--json"])
        XCTAssertTrue(waitUntil { watch.stdout.contains("\"current\"") }, watch.stderr)
        try setTheme("forest")
        XCTAssertTrue(waitUntil { watch.stdout.contains("\"Changed\"") }, watch.stderr)
        watch.stop()
        let lines = watch.stdout.split(separator: "\n").map {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let id = try XCTUnwrap(lines.first??["subscription"] as? Int)
        let changed = try XCTUnwrap(lines.last ?? nil)
        XCTAssertEqual(changed["signal"] as? String, "Changed")
        XCTAssertEqual(changed["subscription"] as? Int, id)
        XCTAssertEqual(
            (changed["changes"] as? [String: [String: String]])?["Window/TabBar"]?["tint-color"], "#008000ff")
    }

    func testCheckIgnoresBrokenSiblingsAndRefusesInvalidIds() throws {
        let themes = try makeDirectory("themes")
        try writeBundle(
            "good", in: themes, sheet: "@theme { inherits: \"default\"; }\nButton { tint-color: red; }\n")
        try writeBundle(
            "bomb", in: themes,
            sheet: "Button { tint-color: " + String(repeating: "alpha(", count: 3000) + "red; }\n")
        try writeBundle("Upper", in: themes, sheet: "Button { tint-color: red; }\n")
        let good = try run(Locations.livery, ["check", themes + "/good"])
        XCTAssertEqual(good.status, 0, "\(good)")
        XCTAssertTrue(good.stdout.hasPrefix(themes + "/good: ok (theme 'good', native, "), good.stdout)
        let upper = try run(Locations.livery, ["check", themes + "/Upper"])
        XCTAssertEqual(upper.status, 1)
        XCTAssertEqual(
            upper.stderr,
            themes
                + "/Upper: error: 'Upper' is not a theme id (lower-case letters, digits and '-', not first); liveryd would skip it\n"
        )
        let bomb = try run(Locations.livery, ["check", themes + "/bomb"])
        XCTAssertEqual(bomb.status, 1)
        XCTAssertTrue(bomb.stderr.contains("theme.css:1:"), bomb.stderr)
        XCTAssertTrue(bomb.stderr.contains("error: functions nested more than 32 deep"), bomb.stderr)
    }

    func testBareLiveryIsAUsageError() throws {
        let bare = try run(Locations.livery, [])
        XCTAssertEqual(bare.status, 2)
        XCTAssertTrue(bare.stderr.hasPrefix("Usage: livery"), bare.stderr)
        XCTAssertEqual(bare.stdout, "")
        let help = try run(Locations.livery, ["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.hasPrefix("Usage: livery"), help.stdout)
        let empty = try run(Locations.livery, ["--address", "", "list"])
        XCTAssertEqual(empty.status, 2, "\(empty)")
    }

    func testListStillShowsAnActiveThemeWhoseFilesWereRemoved() throws {
        let themes = try makeDirectory("themes")
        let bundle = try writeBundle("gone", in: themes, sheet: "Button { tint-color: #123456; }\n")
        try startDaemon(extraThemesDirectories: [themes], arguments: ["--no-watch"])
        try setTheme("gone")
        try FileManager.default.removeItem(atPath: bundle)
        XCTAssertEqual(try livery("reload").status, 0)
        let list = try livery("list")
        XCTAssertTrue(list.stdout.contains("* gone"), list.stdout)
        XCTAssertTrue(list.stdout.contains("(removed from disk; still active)"), list.stdout)
        XCTAssertEqual(try resolve("Window/Button", "tint-color"), "#123456ff\n")
    }

    /// Text a theme or a caller controls reaches the terminal with its control characters
    /// shown as U+FFFD in errors too, not only in `list` and `status`: an escape sequence in a
    /// path, a theme id or a sheet's line must not recolour or retitle the terminal.
    func testErrorsShowNoControlCharacters() throws {
        try startDaemon()
        let resolved = try livery("resolve", "Window/Button.a\u{1B}[31mRED", "tint-color")
        let set = try livery("set", "x\u{1B}[2J")
        let sheet = root + "/escape.css"
        try "Button { tint-colour: red; } /* \u{1B}]0;pwned\u{07} */\n".write(
            toFile: sheet, atomically: true, encoding: .utf8)
        let checked = try livery("check", sheet)
        for r in [resolved, set, checked] {
            XCTAssertEqual(r.status, 1, r.command)
            XCTAssertFalse(
                r.stderr.contains("\u{1B}") || r.stderr.contains("\u{07}"), "\(r.command): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("\u{FFFD}"), "\(r.command): \(r.stderr)")
        }
    }
}
