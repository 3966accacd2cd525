import Foundation
import XCTest

/// darkman's interface (`nl.whynothugo.darkman`, owned when no darkman runs), driven with busctl and dbus-monitor as darkman's users do.
final class DarkmanTests: EndToEndTestCase {
    let darkmanName = "nl.whynothugo.darkman"
    let path = "/nl/whynothugo/darkman"

    func mode() throws -> String {
        try busctl(["get-property", darkmanName, path, darkmanName, "Mode"]).stdout
    }

    func testModeReadsAndSwitchesLiveryAndModeChangedIsSent() throws {
        try FileManager.default.createDirectory(
            atPath: configHome + "/livery", withIntermediateDirectories: true)
        try "light: forest\ndark: default-dark\n".write(
            toFile: configHome + "/livery/config.yaml", atomically: true, encoding: .utf8)
        try startDaemon()
        XCTAssertEqual(try mode(), "s \"light\"\n")
        let monitor = try startMonitor("type='signal',interface='nl.whynothugo.darkman',member='ModeChanged'")
        let set = try busctl(["set-property", darkmanName, path, darkmanName, "Mode", "s", "dark"])
        XCTAssertEqual(set.status, 0, "\(set)")
        // Read right after the write, as darkman's users do: the new mode (a newcomer's trial
        // found the old one, for up to 100 ms).
        XCTAssertEqual(try mode(), "s \"dark\"\n")
        XCTAssertTrue(try waitUntil { try livery("get").stdout == "default-dark\n" }, daemon.stderr)
        XCTAssertEqual(try mode(), "s \"dark\"\n")
        XCTAssertTrue(waitUntil { monitor.stdout.contains("string \"dark\"") }, monitor.stdout)
        // Livery's own switch is darkman's too.
        XCTAssertEqual(try livery("light").stdout, "forest\n")
        XCTAssertTrue(waitUntil { monitor.stdout.contains("string \"light\"") }, monitor.stdout)
        let bad = try busctl(["set-property", darkmanName, path, darkmanName, "Mode", "s", "dim"])
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.stderr.contains("expected 'dark' or 'light'"), "\(bad)")
        XCTAssertEqual(try livery("get").stdout, "forest\n")
    }

    /// Setting `Mode` to a variant no theme is found for is an error reply that names what was
    /// tried, changes nothing, and stays in `Problems` until a switch succeeds.
    func testModeWithNoThemeOfThatVariantIsAnErrorAndAProblem() throws {
        try startDaemon()
        try setTheme("forest")  // light; no forest-dark or other dark sibling is installed
        let set = try busctl(["set-property", darkmanName, path, darkmanName, "Mode", "s", "dark"])
        XCTAssertNotEqual(set.status, 0, "\(set)")
        XCTAssertTrue(set.stderr.contains("no dark theme for 'forest'"), "\(set)")
        XCTAssertEqual(try mode(), "s \"light\"\n")
        XCTAssertEqual(try livery("get").stdout, "forest\n")
        let status = try livery("status")
        XCTAssertTrue(status.stdout.contains("no dark theme for 'forest'"), "\(status)")

        try setTheme("default-dark")
        XCTAssertEqual(try mode(), "s \"dark\"\n")
        let after = try livery("status")
        XCTAssertFalse(after.stdout.contains("no dark theme"), "\(after)")
    }

    /// A darkman already on the bus keeps its name: Livery does not take it.
    func testARunningDarkmanKeepsItsName() throws {
        let owner = try background(
            Locations.python,
            [
                "-c",
                """
                import sys, time, dbus
                conn = dbus.bus.BusConnection(sys.argv[1])
                conn.request_name("nl.whynothugo.darkman", dbus.bus.NAME_FLAG_DO_NOT_QUEUE)
                print(conn.get_unique_name(), flush=True)
                time.sleep(60)
                """, address,
            ])
        XCTAssertTrue(waitUntil { owner.stdout.contains("\n") }, owner.stderr)
        let unique = owner.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try startDaemon()
        let who = try busctl([
            "call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner",
            "s", darkmanName,
        ])
        XCTAssertEqual(who.stdout, "s \"\(unique)\"\n", "\(who)")
        XCTAssertTrue(daemon.isRunning)
    }
}
