import Foundation
import XCTest

/// The desktop portal backend (the README's "The desktop portal"): org.freedesktop.impl.portal.Settings under
/// org.freedesktop.impl.portal.desktop.livery, as xdg-desktop-portal would call it.
final class PortalTests: EndToEndTestCase {
    static let portalName = "org.freedesktop.impl.portal.desktop.livery"
    static let portalPath = "/org/freedesktop/portal/desktop"
    static let settings = "org.freedesktop.impl.portal.Settings"

    func portal(_ method: String, _ arguments: [String]) throws -> RunResult {
        try run(
            Locations.tool("gdbus"),
            [
                "call", "--address", address, "--dest", Self.portalName, "--object-path", Self.portalPath,
                "--method",
                Self.settings + "." + method,
            ] + arguments)
    }

    func testAppearanceFollowsTheActiveTheme() throws {
        try startDaemon()
        XCTAssertEqual(
            try portal("Read", ["org.freedesktop.appearance", "color-scheme"]).stdout, "(<uint32 2>,)\n")
        let monitor = try startMonitor("type='signal',interface='\(Self.settings)',member='SettingChanged'")

        try setTheme("dracula")
        XCTAssertEqual(
            try portal("Read", ["org.freedesktop.appearance", "color-scheme"]).stdout, "(<uint32 1>,)\n")
        let values = try python(
            """
            import sys, dbus
            conn = dbus.bus.BusConnection(sys.argv[1])
            s = dbus.Interface(conn.get_object("\(Self.portalName)", "\(Self.portalPath)"), "\(Self.settings)")
            all = s.ReadAll(["org.freedesktop.appearance"])["org.freedesktop.appearance"]
            accent = all["accent-color"]
            print("accent", " ".join("%d" % round(c * 255) for c in accent), type(accent).__name__, ",".join(type(c).__name__ for c in accent))
            print("color-scheme", int(all["color-scheme"]), type(all["color-scheme"]).__name__)
            print("contrast", int(all["contrast"]), "reduced-motion", int(all["reduced-motion"]))
            print("read", int(s.Read("org.freedesktop.appearance", "color-scheme")))
            try:
                s.Read("org.freedesktop.appearance", "no-such-key")
                print("no error")
            except dbus.exceptions.DBusException as e:
                print(e.get_dbus_name())
            """)
        XCTAssertEqual(
            values.stdout,
            """
            accent 128 191 255 Struct Double,Double,Double
            color-scheme 1 UInt32
            contrast 0 reduced-motion 0
            read 1
            org.freedesktop.portal.Error.NotFound

            """, "\(values)")

        XCTAssertTrue(waitUntil { monitor.stdout.contains("\"color-scheme\"") }, monitor.stdout)
        XCTAssertTrue(
            monitor.stdout.contains(
                "string \"org.freedesktop.appearance\"\n   string \"color-scheme\"\n   variant       uint32 1\n"
            ),
            monitor.stdout)
    }

    func testVersionPropertyIsPublished() throws {
        try startDaemon()
        let r = try run(
            Locations.tool("busctl"),
            [
                "--address=" + address, "get-property", Self.portalName, Self.portalPath, Self.settings,
                "version",
            ])
        XCTAssertEqual(r.status, 0, "\(r)")
        XCTAssertTrue(r.stdout.hasPrefix("u "), "\(r)")
        XCTAssertGreaterThanOrEqual(
            UInt32(r.stdout.dropFirst(2).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0, 1)
    }

    func testPortalNameTakenElsewhereLeavesTheThemeServiceRunning() throws {
        let script = root + "/squatter.py"
        try """
        import sys, time, dbus
        conn = dbus.bus.BusConnection(sys.argv[1])
        print(conn.request_name("\(Self.portalName)", dbus.bus.NAME_FLAG_DO_NOT_QUEUE), flush=True)
        time.sleep(60)
        """.write(toFile: script, atomically: true, encoding: .utf8)
        let squatter = try background(Locations.python, [script, address])
        XCTAssertTrue(waitUntil { squatter.stdout.contains("\n") || !squatter.isRunning }, squatter.stderr)
        XCTAssertEqual(squatter.stdout, "1\n", "DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER: \(squatter.stderr)")

        try startDaemon()
        try setTheme("forest")
        XCTAssertEqual(try resolve("Window/NavigationBar", "tint-color"), "#008000ff\n")
        let warnings = daemon.stderr.split(separator: "\n").filter { $0.hasPrefix("<4>") }
        XCTAssertTrue(warnings.contains { $0.contains(Self.portalName) }, daemon.stderr)
    }
}
