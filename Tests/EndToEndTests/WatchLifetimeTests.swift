import Foundation
import XCTest

/// `livery watch` runs until interrupted; when the daemon it follows goes (it leaves the bus, or
/// the bus itself goes away, before or after a `liveryd --replace`) it says so and exits 1.
final class WatchLifetimeTests: EndToEndTestCase {
    /// Starts `livery watch ARGS…` and switches themes until it has printed `heard`, so that it is
    /// surely listening.
    func listeningWatch(_ arguments: [String], heard: String) throws -> Background {
        let watch = try background(Locations.livery, ["--address", address, "watch"] + arguments)
        var switches = 0
        XCTAssertTrue(
            try waitUntil {
                switches += 1
                try setTheme(switches % 2 == 1 ? "crimson" : "forest")
                return waitUntil(timeout: 0.5) { watch.stdout.contains(heard) } || !watch.isRunning
            }, "watch heard nothing: \(watch.stderr)")
        return watch
    }

    /// The bus goes away under a running watch: it says so and exits 1.
    func assertWatchEndsWhenTheBusGoesAway(
        _ watch: Background, file: StaticString = #filePath, line: UInt = #line
    ) {
        bus.stop()
        XCTAssertTrue(
            watch.waitForExit(timeout: 10), "watch kept running after the bus went away", file: file,
            line: line)
        XCTAssertEqual(watch.process.terminationStatus, 1, watch.stderr, file: file, line: line)
        // Which comes first depends on the bus: the daemon's NameOwnerChanged, or the end of
        // the connection itself. Either way the watch says why it ended.
        let last = watch.stderr.split(separator: "\n").last.map(String.init) ?? ""
        XCTAssertTrue(
            ["livery: liveryd left the bus; watch ended", "livery: the bus went away; watch ended"].contains(
                last),
            watch.stderr, file: file, line: line)
    }

    /// Replaces the running daemon and waits until the watch has noticed (`note` on its stderr).
    func replaceDaemon(
        noticedBy watch: Background, note: String, file: StaticString = #filePath, line: UInt = #line
    )
        throws
    {
        let first = daemon!
        let dirs = standardThemesDirectories.flatMap { ["--themes-dir", $0] }
        _ = try background(Locations.liveryd, dirs + ["--address", address, "--replace"])
        XCTAssertTrue(first.waitForExit(timeout: 10), first.stderr, file: file, line: line)
        XCTAssertTrue(waitUntil { watch.stderr.contains(note) }, watch.stderr, file: file, line: line)
        XCTAssertTrue(
            watch.isRunning, "watch ended at the replacement: \(watch.stderr)", file: file, line: line)
    }

    func testThemeWatchEndsWithAnErrorWhenTheBusGoesAway() throws {
        try startDaemon()
        assertWatchEndsWhenTheBusGoesAway(try listeningWatch([], heard: "ThemeChanged"))
    }

    func testPathWatchEndsWithAnErrorWhenTheBusGoesAway() throws {
        try startDaemon()
        assertWatchEndsWhenTheBusGoesAway(
            try listeningWatch(["Window/TabBar"], heard: "Window/TabBar tint-color"))
    }

    func testThemeWatchFollowsAReplacementThenEndsWithAnErrorWhenTheBusGoesAway() throws {
        try startDaemon()
        let watch = try listeningWatch([], heard: "ThemeChanged")
        try replaceDaemon(noticedBy: watch, note: "its serials start again")
        assertWatchEndsWhenTheBusGoesAway(watch)
    }

    func testPathWatchFollowsAReplacementThenEndsWithAnErrorWhenTheBusGoesAway() throws {
        try startDaemon()
        let watch = try listeningWatch(["Window/TabBar"], heard: "Window/TabBar tint-color")
        try replaceDaemon(noticedBy: watch, note: "watching again")
        assertWatchEndsWhenTheBusGoesAway(watch)
    }

    /// A value the replacement reads differently is printed as a change at its serial, though no
    /// `Changed` carried it (a newcomer's find: text mode printed only "watching again").
    func testPathWatchPrintsWhatAReplacementReadsDifferently() throws {
        let themes = try makeDirectory("themes")
        let sheet = { (tint: String) in
            "@theme { name: \"Tabs\"; inherits: \"default\"; }\nTabBar { tint-color: \(tint); }\n"
        }
        try writeBundle("tabs", in: themes, sheet: sheet("#00ff00"))
        // The first daemon does not watch its files, so that only the replacement sees the edit.
        try startDaemon(extraThemesDirectories: [themes], arguments: ["--no-watch"])
        try setTheme("tabs")
        let watch = try background(
            Locations.livery, ["--address", address, "watch", "Window/TabBar", "--property", "tint-color"])
        // Text mode prints no first values: switch until a change shows the watch is in place.
        var switches = 0
        XCTAssertTrue(
            try waitUntil {
                switches += 1
                try setTheme(switches % 2 == 1 ? "forest" : "tabs")
                return !watch.isRunning
                    || waitUntil(timeout: 0.5) { watch.stdout.contains("Window/TabBar tint-color #008000ff") }
            } && watch.isRunning, "\(watch.stdout)\n\(watch.stderr)")
        try setTheme("tabs")
        XCTAssertTrue(waitUntil { watch.stdout.contains("Window/TabBar tint-color #00ff00ff") }, watch.stdout)
        try writeBundle("tabs", in: themes, sheet: sheet("#ff00ff"))
        let first = daemon!
        let dirs = (standardThemesDirectories + [themes]).flatMap { ["--themes-dir", $0] }
        _ = try background(Locations.liveryd, dirs + ["--address", address, "--replace"])
        XCTAssertTrue(first.waitForExit(timeout: 10), first.stderr)
        XCTAssertTrue(waitUntil { watch.stderr.contains("watching again") }, watch.stderr)
        // The replacement's serials start again: its `Watch` reads serial 0, the value at it.
        XCTAssertTrue(
            waitUntil { watch.stdout.hasSuffix("0 Window/TabBar tint-color #ff00ffff\n") }, watch.stdout)
        watch.stop()
    }

    func testWatchHelpNamesWhatItPrints() throws {
        let help = try run(Locations.livery, ["watch", "--help"])
        XCTAssertEqual(help.status, 0, "\(help)")
        XCTAssertTrue(help.stdout.contains("'ThemeChanged ID SERIAL'"), help.stdout)
        XCTAssertTrue(help.stdout.contains("exits 1"), help.stdout)
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

    func testWatchJsonGivesTheSerialThenEveryChange() throws {
        try startDaemon()
        let watch = try background(
            Locations.livery,
            ["--address", address, "watch", "Window/TabBar", "--property", "tint-color", "--json"])
        XCTAssertTrue(waitUntil { watch.stdout.contains("\"values\"") }, watch.stderr)
        try setTheme("forest")
        XCTAssertTrue(waitUntil { watch.stdout.contains("\"Changed\"") }, watch.stderr)
        watch.stop()
        let lines = watch.stdout.split(separator: "\n").map {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let first = try XCTUnwrap(lines.first ?? nil)
        let serial = try XCTUnwrap(first["serial"] as? Int)
        XCTAssertEqual(
            (first["values"] as? [String: [String: String]])?["Window/TabBar"], ["tint-color": "#007affff"],
            "default's accent, and only the property asked for")
        let changed = try XCTUnwrap(lines.last ?? nil)
        XCTAssertEqual(changed["signal"] as? String, "Changed")
        XCTAssertEqual(changed["path"] as? String, "Window/TabBar")
        XCTAssertEqual(changed["app"] as? String, "")
        XCTAssertEqual(changed["serial"] as? Int, serial + 1)
        XCTAssertEqual((changed["values"] as? [String: String])?["tint-color"], "#008000ff")
    }

    /// A misspelt `--property` is an error with a suggestion, as `resolve` says it, not a watch
    /// that never prints (found by a newcomer's trial).
    func testAMisspeltPropertyIsAnError() throws {
        try startDaemon()
        let r = try livery("watch", "Window/TabBar", "--property", "tint-colour")
        XCTAssertEqual(r.status, 1, "\(r)")
        XCTAssertTrue(r.stderr.contains("'tint-colour' (did you mean 'tint-color'?)"), r.stderr)
    }
}
