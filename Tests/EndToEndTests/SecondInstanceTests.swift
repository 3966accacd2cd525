import Foundation
import XCTest

/// One liveryd per bus: a second instance refuses with a clear message, `--replace` takes over.
final class SecondInstanceTests: EndToEndTestCase {
    /// The unique name owning org.livery.Livery1, from `livery status --json`.
    func owner(file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let r = try livery("status", "--json")
        XCTAssertEqual(r.status, 0, "\(r)", file: file, line: line)
        let status = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        return status?["owner"] as? String ?? ""
    }

    /// Waits for org.livery.Livery1 to get an owner other than `previous`, and returns it.
    func newOwner(
        after previous: String, replacement: Background, file: StaticString = #filePath, line: UInt = #line
    )
        -> String
    {
        var owner = ""
        XCTAssertTrue(
            waitUntil {
                owner = (try? self.owner()) ?? ""
                return owner.hasPrefix(":") && owner != previous
            }, "no new owner; replacement stderr: \(replacement.stderr)", file: file, line: line)
        return owner
    }

    func testSecondInstanceExitsAndReplaceTakesOver() throws {
        let first = try startDaemon()
        try setTheme("forest")
        let firstOwner = try owner()
        XCTAssertTrue(firstOwner.hasPrefix(":"), firstOwner)

        let dirs = standardThemesDirectories.flatMap { ["--themes-dir", $0] }
        let second = try run(Locations.liveryd, dirs + ["--address", address])
        XCTAssertFalse(second.timedOut, "the second liveryd kept running: \(second)")
        XCTAssertNotEqual(second.status, 0, "\(second)")
        XCTAssertTrue(second.stderr.contains("org.livery.Livery1"), "\(second)")
        XCTAssertTrue(second.stderr.contains("--replace"), "\(second)")
        XCTAssertTrue(first.isRunning, "the first liveryd died: \(first.stderr)")
        XCTAssertEqual(try owner(), firstOwner)

        // A `livery watch` that has heard one change is surely listening. Every try switches
        // the theme (choosing by what the watch printed set the same theme again and again, no
        // change to hear, when it was not yet listening at the first switch: flaky under load).
        let watch = try background(Locations.livery, ["--address", address, "watch"])
        var switches = 0
        XCTAssertTrue(
            try waitUntil {
                switches += 1
                try setTheme(switches % 2 == 1 ? "crimson" : "forest")
                return waitUntil(timeout: 0.5) { watch.stdout.contains("ThemeChanged") } || !watch.isRunning
            }, "watch heard nothing: \(watch.stderr)")
        try setTheme("forest")

        let replacement = try background(Locations.liveryd, dirs + ["--address", address, "--replace"])
        XCTAssertTrue(first.waitForExit(timeout: 10), "the replaced liveryd did not exit: \(first.stderr)")
        let newOwner = newOwner(after: firstOwner, replacement: replacement)
        XCTAssertTrue(replacement.isRunning, replacement.stderr)
        daemon = replacement

        let status = try livery("status")
        XCTAssertEqual(status.status, 0, "\(status)")
        XCTAssertTrue(status.stdout.contains("(\(newOwner))"), "\(status)")
        XCTAssertTrue(status.stdout.contains("active theme: forest\n"), "\(status)")
        XCTAssertEqual(try resolve("Window/NavigationBar", "tint-color"), "#008000ff\n")

        // A `livery watch` started before the replacement hears the new owner's signals.
        let before = watch.stdout
        try setTheme("crimson")
        XCTAssertTrue(
            waitUntil { watch.stdout.count > before.count },
            "watch heard nothing after --replace: \(watch.stderr)")
        XCTAssertTrue(
            watch.stdout.dropFirst(before.count).hasPrefix("ThemeChanged crimson 1\n"), watch.stdout)
    }

    /// The unique name owning `name` (`GetNameOwner`), or "" when it has none.
    func owner(of name: String) throws -> String {
        let r = try busctl([
            "call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner",
            "s",
            name,
        ])
        guard r.status == 0, r.stdout.hasPrefix("s \"") else { return "" }
        return String(r.stdout.dropFirst(3).prefix { $0 != "\"" })
    }

    /// Sends `SetTheme` to one daemon by its unique name (argv[2]), one call after another,
    /// rotating through the themes given (argv[3…]), and prints `ok ID` for each call answered
    /// OK; it ends at the first call that is not (the daemon was replaced or has gone).
    static let switchStorm = """
        import sys, dbus
        address, owner, themes = sys.argv[1], sys.argv[2], sys.argv[3:]
        bus = dbus.bus.BusConnection(address)
        i = 0
        while True:
            theme = themes[i % len(themes)]
            i += 1
            try:
                bus.call_blocking(owner, "/org/livery/Livery1", "org.livery.Livery1", "SetTheme", "s", (theme,), timeout=25)
            except dbus.DBusException as e:
                print("refused", theme, e.get_dbus_name(), flush=True)
                break
            print("ok", theme, flush=True)
        """

    /// Every `SetTheme` the old daemon answered OK is in the state the new one starts from:
    /// a storm of switches runs against the old daemon while `liveryd --replace` starts, and
    /// the replacement's active theme, `state.json` and the plugins' outputs are the theme of
    /// the last switch answered OK, round after round.
    func testReplaceDuringASwitchStormKeepsEverySwitchAnsweredOK() throws {
        let plugin = configHome + "/livery/plugins/slug"
        try FileManager.default.createDirectory(atPath: plugin, withIntermediateDirectories: true)
        let output = root + "/slug.txt"
        try "exports:\n  - template: t.mustache\n    output: \(output)\n".write(
            toFile: plugin + "/plugin.yaml", atomically: true, encoding: .utf8)
        try "{{scheme-slug}}\n".write(toFile: plugin + "/t.mustache", atomically: true, encoding: .utf8)
        let themes = ["forest", "crimson", "default", "default-dark"]
        let dirs = standardThemesDirectories.flatMap { ["--themes-dir", $0] }
        var current = try startDaemon()
        var last = ""
        for round in 1...3 {
            let previous = try owner()
            let storm = try background(
                Locations.python, ["-c", Self.switchStorm, address, previous] + themes)
            XCTAssertTrue(
                waitUntil { storm.stdout.components(separatedBy: "ok ").count > 3 || !storm.isRunning },
                "round \(round): the storm got no answers: \(storm.stdout)\(storm.stderr)")
            let replacement = try background(Locations.liveryd, dirs + ["--address", address, "--replace"])
            daemon = replacement
            XCTAssertTrue(
                storm.waitForExit(timeout: 20), "round \(round): the storm never ended: \(storm.stdout)")
            XCTAssertTrue(
                current.waitForExit(timeout: 10),
                "round \(round): the replaced liveryd did not exit: \(current.stderr)")
            _ = newOwner(after: previous, replacement: replacement)
            let answered = storm.stdout.split(separator: "\n").filter { $0.hasPrefix("ok ") }
            last = String(try XCTUnwrap(answered.last, "round \(round): \(storm.stdout)").dropFirst(3))
            XCTAssertEqual(
                try activeTheme(), last + "\n",
                "round \(round): the replacement lost switches answered OK (\(answered.count) answered)")
            let saved =
                try JSONSerialization.jsonObject(
                    with: Data(contentsOf: URL(fileURLWithPath: stateHome + "/livery/state.json")))
                as? [String: Any]
            XCTAssertEqual(saved?["theme"] as? String, last, "round \(round)")
            XCTAssertTrue(
                waitUntil { (try? String(contentsOfFile: output, encoding: .utf8)) == last + "\n" },
                "round \(round): \(output) holds \((try? String(contentsOfFile: output, encoding: .utf8)) ?? "nothing")"
            )
            current = replacement
        }
        // Setting the theme the replacement reports is a switch to what it already has; another
        // one switches, plugins included.
        try setTheme(last)
        XCTAssertEqual(try activeTheme(), last + "\n")
        let other = themes.first { $0 != last }!
        try setTheme(other)
        XCTAssertEqual(try activeTheme(), other + "\n")
        XCTAssertTrue(waitUntil { (try? String(contentsOfFile: output, encoding: .utf8)) == other + "\n" })
    }

    /// A replacement takes every name the daemon serves at once, even from a daemon that does
    /// not answer (stopped with SIGSTOP); the stopped one, continued, leaves.
    func testReplaceOverAStoppedDaemonTakesEveryName() throws {
        let first = try startDaemon()
        let firstOwner = try owner()
        let names = [
            "org.livery.Livery1", "org.freedesktop.impl.portal.desktop.livery", "nl.whynothugo.darkman",
        ]
        XCTAssertEqual(try names.map { try owner(of: $0) }, Array(repeating: firstOwner, count: names.count))
        kill(first.pid, SIGSTOP)
        defer { kill(first.pid, SIGCONT) }

        let dirs = standardThemesDirectories.flatMap { ["--themes-dir", $0] }
        let replacement = try background(Locations.liveryd, dirs + ["--address", address, "--replace"])
        daemon = replacement
        var owners: [String] = []
        XCTAssertTrue(
            try waitUntil {
                owners = try names.map { try owner(of: $0) }
                return owners[0].hasPrefix(":") && owners[0] != firstOwner && Set(owners).count == 1
            }, "owners of \(names): \(owners) (the stopped daemon is \(firstOwner)); \(replacement.stderr)")

        kill(first.pid, SIGCONT)
        XCTAssertTrue(first.waitForExit(timeout: 10), "the continued liveryd did not exit: \(first.stderr)")
        XCTAssertEqual(try activeTheme(), "default\n")
        XCTAssertTrue(replacement.isRunning, replacement.stderr)
    }

    /// The old instance holds the portal backend's name until it exits, so the new one must take
    /// it over (or queue for it) together with org.livery.Livery1.
    func testReplaceAlsoTakesOverTheDesktopPortalName() throws {
        let first = try startDaemon()
        let firstOwner = try owner()
        let portalName = "org.freedesktop.impl.portal.desktop.livery"
        func portalOwner() throws -> RunResult {
            try busctl([
                "call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                "GetNameOwner", "s",
                portalName,
            ])
        }
        XCTAssertEqual(try portalOwner().stdout, "s \"\(firstOwner)\"\n")

        let dirs = standardThemesDirectories.flatMap { ["--themes-dir", $0] }
        let replacement = try background(Locations.liveryd, dirs + ["--address", address, "--replace"])
        daemon = replacement
        XCTAssertTrue(first.waitForExit(timeout: 10), "the replaced liveryd did not exit: \(first.stderr)")
        let newOwner = newOwner(after: firstOwner, replacement: replacement)

        var last: RunResult?
        let moved = try waitUntil(timeout: 3) {
            last = try portalOwner()
            return last?.stdout == "s \"\(newOwner)\"\n"
        }
        XCTAssertTrue(
            moved,
            "after --replace, \(portalName) is not owned by the new instance \(newOwner): "
                + "\(last.map { "\($0)" } ?? "")\nreplacement stderr:\n\(replacement.stderr)")
        let read = try run(
            Locations.tool("gdbus"),
            [
                "call", "--address", address, "--dest", portalName, "--object-path",
                "/org/freedesktop/portal/desktop",
                "--method", "org.freedesktop.impl.portal.Settings.Read", "org.freedesktop.appearance",
                "color-scheme",
            ])
        XCTAssertEqual(read.stdout, "(<uint32 2>,)\n", "\(read)")
    }
}
