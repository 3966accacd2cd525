import Foundation
import XCTest

/// Requests that must fail with the right D-Bus error and leave the daemon serving and the
/// active theme as it was.
final class RequestErrorTests: EndToEndTestCase {
    /// The D-Bus error name in gdbus's message (`GDBus.Error:NAME: message`).
    func gdbusError(_ r: RunResult) -> String? {
        guard let range = r.stderr.range(of: "GDBus.Error:") else { return nil }
        return r.stderr[range.upperBound...].split(separator: ":", maxSplits: 1).first.map(String.init)
    }

    /// The D-Bus error name in dbus-send's message (`Error NAME: message`).
    func dbusSendError(_ r: RunResult) -> String? {
        guard let range = r.stderr.range(of: "Error ") else { return nil }
        return r.stderr[range.upperBound...].split(separator: ":", maxSplits: 1).first.map(String.init)
    }

    /// A themes directory holding the broken bundle `broken/theme.css`.
    func brokenThemesDirectory() throws -> String {
        let dir = try makeDirectory("broken-themes")
        try writeBundle("broken", in: dir, sheet: "Buton { tint-colour: #zz; }\n")
        return dir
    }

    func assertStillServingForest(file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertTrue(daemon.isRunning, "liveryd died: \(daemon.stderr)", file: file, line: line)
        XCTAssertEqual(try activeTheme(), "forest\n", file: file, line: line)
        XCTAssertEqual(
            try resolve("Window/NavigationBar", "tint-color"), "#008000ff\n", file: file, line: line)
        XCTAssertEqual(try serial(), 1, "a failed request published a change", file: file, line: line)
    }

    func testUnknownThemeFailsAndChangesNothing() throws {
        try startDaemon()
        try setTheme("forest")

        let cli = try livery("set", "no-such-theme")
        XCTAssertEqual(cli.status, 1, "\(cli)")
        XCTAssertTrue(cli.stderr.contains("UnknownTheme"), "\(cli)")
        XCTAssertTrue(cli.stderr.contains("no-such-theme"), "\(cli)")
        XCTAssertEqual(cli.stdout, "")

        let bus = try gdbusCall("SetTheme", ["no-such-theme"])
        XCTAssertNotEqual(bus.status, 0, "\(bus)")
        XCTAssertEqual(gdbusError(bus), "org.livery.Livery1.Error.UnknownTheme", "\(bus)")
        try assertStillServingForest()
    }

    func testInvalidThemeIsNeverActivated() throws {
        try startDaemon(extraThemesDirectories: [try brokenThemesDirectory()])
        try setTheme("forest")

        let bus = try gdbusCall("SetTheme", ["broken"])
        XCTAssertNotEqual(bus.status, 0, "\(bus)")
        XCTAssertEqual(gdbusError(bus), "org.livery.Livery1.Error.InvalidTheme", "\(bus)")

        let cli = try livery("set", "broken")
        XCTAssertEqual(cli.status, 1, "\(cli)")
        XCTAssertTrue(cli.stderr.hasPrefix("livery: InvalidTheme"), "\(cli)")
        XCTAssertTrue(cli.stderr.contains("Buton"), "the message names the first error: \(cli)")
        try assertStillServingForest()

        // ListThemes reports it as invalid, with its errors, once checked (installed themes are
        // checked on a thread of their own after start-up).
        var list = try livery("list", "--json")
        var broken: [String: Any]?
        try waitUntil(timeout: 60) {
            list = try livery("list", "--json")
            XCTAssertEqual(list.status, 0, "\(list)")
            let themes =
                try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]] ?? []
            broken = themes.first { $0["id"] as? String == "broken" }
            return broken?["checked"] as? Bool == true
        }
        XCTAssertEqual(broken?["checked"] as? Bool, true, "\(list)")
        XCTAssertEqual(broken?["valid"] as? Bool, false, "\(list)")
        XCTAssertFalse((broken?["errors"] as? [String] ?? []).isEmpty, "\(list)")
    }

    func testOversizedRequestsFailWithLimitExceeded() throws {
        try startDaemon()
        try setTheme("forest")

        // A 100 KiB path (well under ARG_MAX and the 128 KiB single-argument limit).
        let longPath = "Window/" + String(repeating: "a", count: 100 * 1024)
        let long = try gdbusCall("Resolve", [longPath, "[]", "{}"])
        XCTAssertNotEqual(long.status, 0, "\(long)")
        XCTAssertEqual(gdbusError(long), "org.livery.Livery1.Error.LimitExceeded", "\(long)")

        let deep = try gdbusCall(
            "Resolve", [Array(repeating: "View", count: 33).joined(separator: "/"), "[]", "{}"])
        XCTAssertEqual(gdbusError(deep), "org.livery.Livery1.Error.LimitExceeded", "33 segments: \(deep)")

        let many = try python(
            """
            import sys, dbus
            conn = dbus.bus.BusConnection(sys.argv[1])
            obj = conn.get_object("org.livery.Livery1", "/org/livery/Livery1")
            def call(n):
                items = dbus.Array([dbus.Struct(("Window/Button", dbus.Array([], signature="s"))) for _ in range(n)],
                                   signature="(sas)")
                try:
                    values = obj.ResolveMany(items, dbus.Dictionary({}, signature="sv"), dbus_interface="org.livery.Livery1")
                    print("ok", len(values))
                except dbus.exceptions.DBusException as e:
                    print(e.get_dbus_name())
            call(10000)
            call(1024)
            props = dbus.Array(["tint-color"] * 257, signature="s")
            try:
                obj.Resolve("Window/Button", props, dbus.Dictionary({}, signature="sv"), dbus_interface="org.livery.Livery1")
                print("ok")
            except dbus.exceptions.DBusException as e:
                print(e.get_dbus_name())
            """)
        XCTAssertEqual(
            many.stdout,
            "org.livery.Livery1.Error.LimitExceeded\nok 1024\norg.livery.Livery1.Error.LimitExceeded\n",
            "\(many)")
        try assertStillServingForest()
    }

    func testWrongArgumentTypesAndUnknownMembersGetStandardErrors() throws {
        try startDaemon()
        try setTheme("forest")

        let setInt = try dbusSend("org.livery.Livery1.SetTheme", ["int32:5"])
        XCTAssertNotEqual(setInt.status, 0, "\(setInt)")
        XCTAssertEqual(dbusSendError(setInt), "org.freedesktop.DBus.Error.InvalidArgs", "\(setInt)")

        let resolveInt = try dbusSend("org.livery.Livery1.Resolve", ["int32:42", "array:string:tint-color"])
        XCTAssertEqual(dbusSendError(resolveInt), "org.freedesktop.DBus.Error.InvalidArgs", "\(resolveInt)")

        let noArgs = try dbusSend("org.livery.Livery1.SetTheme", [])
        XCTAssertEqual(dbusSendError(noArgs), "org.freedesktop.DBus.Error.InvalidArgs", "\(noArgs)")

        // Wrong type inside a well-formed call: the option app must be a string.
        let badOption = try gdbusCall("Resolve", ["Window/Switch", "['on-tint-color']", "{'app': <42>}"])
        XCTAssertEqual(gdbusError(badOption), "org.freedesktop.DBus.Error.InvalidArgs", "\(badOption)")

        let unknown = try dbusSend("org.livery.Livery1.Frobnicate", [])
        XCTAssertNotEqual(unknown.status, 0, "\(unknown)")
        XCTAssertEqual(dbusSendError(unknown), "org.freedesktop.DBus.Error.UnknownMethod", "\(unknown)")

        let unknownInterface = try dbusSend("org.example.Nope.Frobnicate", [])
        XCTAssertEqual(
            dbusSendError(unknownInterface), "org.freedesktop.DBus.Error.UnknownMethod", "\(unknownInterface)"
        )

        let invalidPath = try gdbusCall("Resolve", ["Window/Buton", "[]", "{}"])
        XCTAssertEqual(gdbusError(invalidPath), "org.livery.Livery1.Error.InvalidPath", "\(invalidPath)")

        let unknownProperty = try gdbusCall("Resolve", ["Window/Button", "['tint-colour']", "{}"])
        XCTAssertEqual(
            gdbusError(unknownProperty), "org.livery.Livery1.Error.UnknownProperty", "\(unknownProperty)")

        try assertStillServingForest()
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
