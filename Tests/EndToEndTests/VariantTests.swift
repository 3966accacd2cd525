import Foundation
import XCTest

/// Light and dark (the README, "Light and dark"): `livery dark`, `light`, `toggle`, `get --variant`, the bus's
/// `SetVariant` and `Variant`, pairs from `config.yaml`, declared variants and the naming rule.
final class VariantTests: EndToEndTestCase {
    var tinted: String { Locations.fixtures + "/tinted/schemes/base16" }

    /// The case a new user tried: `toggle` on `gruvbox-dark-medium` with
    /// `gruvbox-light-medium.yaml` installed goes there, and back.
    func testToggleFindsTheTintedThemingPair() throws {
        try startDaemon(extraThemesDirectories: [tinted])
        try setTheme("gruvbox-dark-medium")
        XCTAssertEqual(try livery("toggle").stdout, "gruvbox-light-medium\n")
        XCTAssertEqual(try livery("get", "--variant").stdout, "light\n")
        XCTAssertEqual(try livery("toggle").stdout, "gruvbox-dark-medium\n")
        try setTheme("catppuccin-mocha")
        XCTAssertEqual(try livery("light").stdout, "catppuccin-latte\n")
        try setTheme("rose-pine-dawn")
        XCTAssertEqual(try livery("dark").stdout, "rose-pine\n")
        // dracula has no light sibling: a clear error, nothing changes.
        try setTheme("dracula")
        let none = try livery("light")
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.stderr.contains("no light theme for 'dracula' (dark)"), none.stderr)
        XCTAssertTrue(none.stderr.contains("config.yaml"), none.stderr)
        XCTAssertEqual(try livery("get").stdout, "dracula\n")
    }

    /// `dark` and `light` go to the configured themes; asking for the active variant changes
    /// nothing (no new serial); the bus has `Variant` and `SetVariant`, which refuses other words.
    func testDarkLightAndTheBus() throws {
        try FileManager.default.createDirectory(
            atPath: configHome + "/livery", withIntermediateDirectories: true)
        try "light: forest\ndark: default-dark\n".write(
            toFile: configHome + "/livery/config.yaml", atomically: true, encoding: .utf8)
        try startDaemon()
        XCTAssertEqual(try livery("get", "--variant").stdout, "light\n", "default is light")
        let before = try serial()
        XCTAssertEqual(try livery("light").stdout, "default\n")
        XCTAssertEqual(try serial(), before, "already light: nothing published")
        let monitor = try startMonitor(
            "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'")
        XCTAssertEqual(try livery("dark").stdout, "default-dark\n")
        XCTAssertTrue(waitUntil { monitor.stdout.contains("string \"Variant\"") }, monitor.stdout)
        let variant = try busctl([
            "get-property", Locations.busName, Locations.objectPath, Locations.interface, "Variant",
        ])
        XCTAssertEqual(variant.stdout, "s \"dark\"\n", "\(variant)")
        XCTAssertEqual(try livery("toggle").stdout, "forest\n")
        let bad = try busctl([
            "call", Locations.busName, Locations.objectPath, Locations.interface, "SetVariant", "s", "dim",
        ])
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.stderr.contains("expected 'dark' or 'light'"), "\(bad)")
        let json = try livery("get", "--variant", "--json")
        XCTAssertEqual(json.stdout, "{\"variant\":\"light\"}\n")
    }

    /// A schedule of fixed local times a few seconds ahead: the daemon switches to dark by
    /// itself at the time, and `ThemeChanged` arrives. At start-up the schedule says light,
    /// which the default theme is already: nothing changes then.
    func testTheScheduleSwitchesByItself() throws {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        formatter.timeZone = TimeZone.current
        let now = Date()
        let light = formatter.string(from: now.addingTimeInterval(-3600))
        let dark = formatter.string(from: now.addingTimeInterval(8))
        try FileManager.default.createDirectory(
            atPath: configHome + "/livery", withIntermediateDirectories: true)
        try "light: forest\ndark: default-dark\nschedule:\n  light: \"\(light)\"\n  dark: \"\(dark)\"\n"
            .write(
                toFile: configHome + "/livery/config.yaml", atomically: true, encoding: .utf8)
        let monitor = try startMonitor("type='signal',interface='org.livery.Livery1',member='ThemeChanged'")
        try startDaemon()
        XCTAssertTrue(
            waitUntil(timeout: 30) { monitor.stdout.contains("string \"default-dark\"") },
            "no ThemeChanged at \(dark): \(monitor.stdout)\n\(daemon.stderr)")
        XCTAssertEqual(try livery("get", "--variant").stdout, "dark\n")
        XCTAssertTrue(Date() >= now.addingTimeInterval(7), "not before its time")
    }

    /// The daemon reads local time as libc does: under `TZ=<+14>-14` (a POSIX rule, 14 hours
    /// east of UTC all year) a dark time a few seconds ahead in that local time switches at it.
    func testTheScheduleFollowsAPosixTZRule() throws {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        formatter.timeZone = TimeZone(secondsFromGMT: 14 * 3600)  // the rule's offset, by hand
        let now = Date()
        let light = formatter.string(from: now.addingTimeInterval(-3600))
        let dark = formatter.string(from: now.addingTimeInterval(8))
        try FileManager.default.createDirectory(
            atPath: configHome + "/livery", withIntermediateDirectories: true)
        try "light: forest\ndark: default-dark\nschedule:\n  light: \"\(light)\"\n  dark: \"\(dark)\"\n"
            .write(toFile: configHome + "/livery/config.yaml", atomically: true, encoding: .utf8)
        environment["TZ"] = "<+14>-14"
        let monitor = try startMonitor("type='signal',interface='org.livery.Livery1',member='ThemeChanged'")
        try startDaemon()
        XCTAssertTrue(
            waitUntil(timeout: 30) { monitor.stdout.contains("string \"default-dark\"") },
            "no ThemeChanged at \(dark) (UTC+14): \(monitor.stdout)\n\(daemon.stderr)")
        XCTAssertEqual(try livery("get", "--variant").stdout, "dark\n")
        XCTAssertTrue(Date() >= now.addingTimeInterval(7), "not before its time")
    }
}
