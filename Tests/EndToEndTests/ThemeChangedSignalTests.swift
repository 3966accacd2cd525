import Foundation
import XCTest

/// `ThemeChanged` as clients written by other people see it: dbus-monitor, a python3-dbus
/// program on a GLib main loop, and `livery watch`.
final class ThemeChangedSignalTests: EndToEndTestCase {
    static let listenerScript = """
        import sys, dbus
        from dbus.mainloop.glib import DBusGMainLoop
        from gi.repository import GLib

        DBusGMainLoop(set_as_default=True)
        conn = dbus.bus.BusConnection(sys.argv[1])
        loop = GLib.MainLoop()

        def changed(theme, serial, sender=None):
            print("ThemeChanged %s %d %s %s" % (theme, serial, type(theme).__name__, type(serial).__name__), flush=True)
            loop.quit()

        # add_signal_receiver adds the match rule with a blocking AddMatch: after READY the
        # listener cannot miss the signal.
        conn.add_signal_receiver(changed, signal_name="ThemeChanged", dbus_interface="org.livery.Livery1",
                                 path="/org/livery/Livery1", sender_keyword="sender")
        print("READY", flush=True)
        GLib.timeout_add_seconds(15, loop.quit)
        loop.run()
        """

    func testThemeChangedReachesDBusMonitorPythonAndLiveryWatchWithTheNextSerial() throws {
        try startDaemon()
        try setTheme("forest")

        // dbus-monitor sees the signal, and also the `Get Serial` call with which `livery watch`
        // says that its match rule is in place.
        let monitor = try startMonitor(
            "type='signal',interface='org.livery.Livery1',member='ThemeChanged'",
            "type='method_call',interface='org.freedesktop.DBus.Properties',member='Get',path='/org/livery/Livery1'"
        )

        let scriptPath = root + "/listener.py"
        try Self.listenerScript.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        let listener = try background(Locations.python, [scriptPath, address])
        XCTAssertTrue(
            waitUntil { listener.stdout.contains("READY\n") || !listener.isRunning },
            "python listener: \(listener.stderr)")
        XCTAssertTrue(listener.isRunning, "python listener exited: \(listener.stderr)")

        let watch = try background(Locations.livery, ["--address", address, "watch"])
        XCTAssertTrue(
            waitUntil { monitor.stdout.contains("string \"Serial\"") || !watch.isRunning },
            "livery watch never read Serial; its stderr: \(watch.stderr)")
        XCTAssertTrue(watch.isRunning, "livery watch exited: \(watch.stderr)")

        let before = try serial()
        XCTAssertEqual(before, 1, "one switch so far")
        try setTheme("crimson")
        let next = before + 1

        XCTAssertTrue(
            waitUntil { !listener.isRunning },
            "python listener got nothing: \(listener.stdout)\(listener.stderr)")
        XCTAssertEqual(
            listener.stdout, "READY\nThemeChanged crimson \(next) String UInt32\n", listener.stderr)

        XCTAssertTrue(waitUntil { monitor.stdout.contains("member=ThemeChanged") })
        XCTAssertTrue(waitUntil { monitor.stdout.contains("uint32 \(next)\n") }, monitor.stdout)
        XCTAssertTrue(
            monitor.stdout.contains(
                "path=/org/livery/Livery1; interface=org.livery.Livery1; member=ThemeChanged\n   string \"crimson\"\n   uint32 \(next)\n"
            ), monitor.stdout)
        XCTAssertEqual(
            monitor.stdout.components(separatedBy: "member=ThemeChanged").count - 1, 1, monitor.stdout)

        XCTAssertTrue(
            waitUntil { watch.stdout.contains("\n") }, "livery watch printed nothing: \(watch.stderr)")
        XCTAssertEqual(watch.stdout, "ThemeChanged crimson \(next)\n")
        XCTAssertEqual(try serial(), next)
    }

    func testSettingTheActiveThemeAgainPublishesNothing() throws {
        try startDaemon()
        try setTheme("forest")
        let monitor = try startMonitor("type='signal',interface='org.livery.Livery1',member='ThemeChanged'")
        try setTheme("forest")
        // A switch after it is the marker: once it arrives, an earlier signal would have too.
        try setTheme("crimson")
        XCTAssertTrue(waitUntil { monitor.stdout.contains("string \"crimson\"") }, monitor.stdout)
        XCTAssertEqual(
            monitor.stdout.components(separatedBy: "member=ThemeChanged").count - 1, 1, monitor.stdout)
        XCTAssertFalse(monitor.stdout.contains("string \"forest\""), monitor.stdout)
        XCTAssertEqual(try serial(), 2)
    }
}
