import Foundation
import XCTest

/// A libadwaita application nobody here wrote follows Livery through the desktop portal: Debian's
/// libadwaita 1.2 (through Python's `gi`), Debian's xdg-desktop-portal in front of liveryd's
/// Settings backend, on an Xvfb screen of the test's own. Its `Adw.StyleManager` reports dark
/// after `livery dark`, with `notify::dark`, and its window's background turns from the light
/// to the dark `window_bg_color` on a real screenshot.
final class LibadwaitaPortalTests: EndToEndTestCase {
    /// libadwaita 1.2's `window_bg_color`, the background of every window (`.background` in its
    /// `styles/base.css`), as `styles/defaults-light.css` and `styles/defaults-dark.css` in the
    /// library's GResource define it.
    static let lightWindowBackground = PixelColor("#fafafa")
    static let darkWindowBackground = PixelColor("#242424")
    /// The window's default size in the client below.
    static let windowSize = (width: 320, height: 240)
    /// Pixels of the window's background a screenshot must show: three quarters of the window,
    /// leaving its frame (drawn without a compositor) and antialiased edges out.
    static let backgroundPixels = windowSize.width * windowSize.height * 3 / 4

    /// The client: libadwaita's style manager as an application sees it, one line when it starts
    /// and one on each `notify::dark`, and an empty window of the given size.
    static let client = """
        import gi
        gi.require_version("Gtk", "4.0")
        gi.require_version("Adw", "1")
        from gi.repository import Adw, GLib, Gtk

        Adw.init()
        manager = Adw.StyleManager.get_default()
        print("dark", manager.get_dark(), flush=True)
        manager.connect("notify::dark", lambda m, _: print("notify dark", m.get_dark(), flush=True))
        window = Adw.Window(default_width=\(windowSize.width), default_height=\(windowSize.height))
        window.set_content(Gtk.Box())
        window.present()
        GLib.MainLoop().run()
        """

    func testLibadwaitaWindowTurnsDarkWhenLiveryDoes() throws {
        try startDaemon()
        try setTheme("default")
        let portal = try startDesktopPortal()
        let display = try startDisplay()
        let reads = try startMonitor(
            "type='method_call',interface='org.freedesktop.portal.Settings',member='Read'")

        let client = try startClient()
        XCTAssertTrue(
            waitUntil { client.stdout.contains("dark ") || !client.isRunning },
            "the libadwaita client printed nothing: \(client.stderr)")
        XCTAssertEqual(client.stdout, "dark False\n", client.stderr)
        // It read the colour scheme from the portal frontend the test started (GDBusProxy calls
        // the name's owner), not from one the bus activated or from anywhere else.
        let (frontend, frontendPID) = try owner(of: "org.freedesktop.portal.Desktop")
        XCTAssertEqual(frontendPID, portal.pid)
        let colorSchemeReads = reads.stdout.components(separatedBy: "method call time=").filter {
            $0.contains("-> destination=\(frontend) ")
                && $0.contains(
                    "member=Read\n   string \"org.freedesktop.appearance\"\n   string \"color-scheme\"\n")
        }
        XCTAssertEqual(colorSchemeReads.count, 1, "frontend \(frontend); calls: \(reads.stdout)")
        try expectWindowBackground(Self.lightWindowBackground, not: Self.darkWindowBackground, on: display)

        let dark = try livery("dark")
        XCTAssertEqual(dark.status, 0, "\(dark)")
        XCTAssertEqual(dark.stdout, "default-dark\n")
        XCTAssertTrue(
            waitUntil { client.stdout.contains("notify dark") || !client.isRunning },
            "no notify::dark: \(client.stdout)\(client.stderr)\nportal: \(portal.stderr)")
        XCTAssertEqual(client.stdout, "dark False\nnotify dark True\n", client.stderr)
        try expectWindowBackground(Self.darkWindowBackground, not: Self.lightWindowBackground, on: display)
        XCTAssertTrue(client.isRunning, client.stderr)
    }

    /// `org.freedesktop.DBus.METHOD(ARGUMENT)` on the test's bus, the reply as gdbus prints it.
    private func askBus(_ method: String, _ argument: String) throws -> String {
        let r = try run(
            Locations.tool("gdbus"),
            [
                "call", "--address", address, "--dest", "org.freedesktop.DBus", "--object-path",
                "/org/freedesktop/DBus", "--method", "org.freedesktop.DBus." + method, argument,
            ])
        guard r.status == 0 else { throw HarnessFailure("\(r)") }
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The unique name that owns `name` on the test's bus, and that connection's process id.
    private func owner(of name: String) throws -> (uniqueName: String, pid: pid_t) {
        // `(':1.10',)`, then `(uint32 1234,)`
        let reply = try askBus("GetNameOwner", name)
        guard let uniqueName = reply.split(separator: "'").dropFirst().first.map(String.init) else {
            throw HarnessFailure("GetNameOwner(\(name)) replied \(reply)")
        }
        let pidReply = try askBus("GetConnectionUnixProcessID", uniqueName)
        guard let pid = pidReply.split(whereSeparator: { " ,()".contains($0) }).last.flatMap({ pid_t($0) })
        else {
            throw HarnessFailure("GetConnectionUnixProcessID(\(uniqueName)) replied \(pidReply)")
        }
        return (uniqueName, pid)
    }

    /// Starts the client with Debian's python3 on the test's bus and display. GSettings is kept
    /// in memory (its `color-scheme` default, `default`, is libadwaita's fallback when the portal
    /// does not answer), and libadwaita's and GTK's own overrides are unset, so that only the
    /// portal can make it dark.
    private func startClient() throws -> Background {
        let script = root + "/adwaita-client.py"
        try Self.client.write(toFile: script, atomically: true, encoding: .utf8)
        environment["GDK_BACKEND"] = "x11"
        environment["GSK_RENDERER"] = "cairo"
        environment["GSETTINGS_BACKEND"] = "memory"
        environment["GTK_A11Y"] = "none"
        for name in ["ADW_DEBUG_COLOR_SCHEME", "ADW_DEBUG_HIGH_CONTRAST", "ADW_DISABLE_PORTAL", "GTK_THEME"] {
            environment[name] = nil
        }
        return try background(Locations.python, [script])
    }

    /// Waits until a screenshot shows the window's background in `expected` (within 2 per
    /// channel) on at least `backgroundPixels` pixels, and then that no pixel is `other`.
    private func expectWindowBackground(
        _ expected: PixelColor, not other: PixelColor, on display: VirtualDisplay,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        var shot: Screenshot?
        let shown = try waitUntil {
            shot = try display.screenshot()
            return shot!.count(of: expected, tolerance: 2) >= Self.backgroundPixels
        }
        let last = try XCTUnwrap(shot, file: file, line: line)
        XCTAssertTrue(
            shown,
            "fewer than \(Self.backgroundPixels) pixels of \(expected): \(last.count(of: expected, tolerance: 2)); "
                + "commonest colours: \(last.commonestColors())",
            file: file, line: line)
        XCTAssertEqual(
            last.count(of: other, tolerance: 2), 0, "commonest colours: \(last.commonestColors())",
            file: file,
            line: line)
    }
}
