import Foundation
import XCTest

/// The shipped gtk plugin, enabled as the README says, seen from inside GTK programs nobody here
/// wrote: Debian's GTK 3, GTK 4 and libadwaita through Python's `gi`, on an Xvfb screen whose
/// XSETTINGS manager is Debian's xsettingsd, its configuration (`~/.xsettingsd`) naming the GTK
/// theme Livery. Each window reports the named colours GTK looks up for it
/// (`GtkStyleContext.lookup_color`) when it opens and after each change of the theme's name, and
/// screenshots show what it draws. The expected colours are the schemes' `base00` as their files
/// in `Tests/Fixtures/schemes/base16` write them.
final class GtkPluginTests: EndToEndTestCase {
    /// solarized-light.yaml's base00 (a light scheme) and nord.yaml's (a dark one).
    static let solarizedBase00 = PixelColor("#fdf6e3")
    static let nordBase00 = PixelColor("#2e3440")
    /// The size of every window the client opens.
    static let windowSize = (width: 280, height: 200)
    /// Pixels of a window's background a screenshot must show: three quarters of the window,
    /// leaving antialiased edges out.
    static let backgroundPixels = windowSize.width * windowSize.height * 3 / 4

    /// The client: `argv[1]` is `3` (GTK 3), `4` (GTK 4) or `adw` (libadwaita), `argv[2]` the
    /// window's x position on the screen (GTK 3 only: an X window without a window manager
    /// stays where it is mapped; GTK 4 has no such call and maps at the left edge). It prints
    /// `open N theme_bg_color=#rrggbb window_bg_color=#rrggbb` for each window it opens (its
    /// first at start, another on each SIGUSR1) and `reload THEME …` after each change of
    /// `gtk-theme-name`, once GTK has handled it.
    static let client = """
        import signal, sys
        import gi
        kind = sys.argv[1]
        gi.require_version("Gtk", "3.0" if kind == "3" else "4.0")
        if kind == "adw":
            gi.require_version("Adw", "1")
        from gi.repository import GLib, Gtk
        if kind == "adw":
            from gi.repository import Adw
            Adw.init()
        elif kind == "3":
            Gtk.init([])
        windows = []

        def colours(window):
            out = []
            for name in ("theme_bg_color", "window_bg_color"):
                found, rgba = window.get_style_context().lookup_color(name)
                value = "#%02x%02x%02x" % tuple(round(c * 255) for c in (rgba.red, rgba.green, rgba.blue))
                out.append(name + "=" + (value if found else "none"))
            return " ".join(out)

        def report(tag):
            print(tag, colours(windows[-1]), flush=True)
            return False

        def open_window():
            size = dict(default_width=\(windowSize.width), default_height=\(windowSize.height))
            window = Adw.Window(**size) if kind == "adw" else Gtk.Window(**size)
            if kind == "3":
                window.add(Gtk.Box())
                window.move(int(sys.argv[2]), 0)
                window.show_all()
            else:
                window.set_child(Gtk.Box()) if kind == "4" else window.set_content(Gtk.Box())
                window.present()
            windows.append(window)
            report("open %d" % len(windows))
            return True

        settings = Gtk.Settings.get_default()
        settings.connect(
            "notify::gtk-theme-name",
            lambda s, _: GLib.idle_add(report, "reload " + s.props.gtk_theme_name))
        GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGUSR1, open_window)
        open_window()
        GLib.MainLoop().run()
        """

    var home: String { root + "/home" }

    /// The setup the README gives: the plugin linked, `@import 'livery.css';` in GTK 4's
    /// `gtk.css` (libadwaita), and xsettingsd running on the test's display from `~/.xsettingsd`,
    /// which names the GTK theme Livery among other settings. GTK's clients read their
    /// configuration and themes under the test's XDG directories.
    private func setUpDesktop() throws -> (display: VirtualDisplay, xsettings: String) {
        environment["HOME"] = home
        try FileManager.default.createDirectory(
            atPath: configHome + "/livery/plugins", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: configHome + "/livery/plugins/gtk", withDestinationPath: Locations.repo + "/plugins/gtk")
        try FileManager.default.createDirectory(
            atPath: configHome + "/gtk-4.0", withIntermediateDirectories: true)
        try "@import 'livery.css';\n".write(
            toFile: configHome + "/gtk-4.0/gtk.css", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let xsettings = home + "/.xsettingsd"
        try "Net/ThemeName \"Livery\"\nXft/DPI 98304\n".write(
            toFile: xsettings, atomically: true, encoding: .utf8)
        let display = try startDisplay()
        let manager = Locations.tool("xsettingsd")
        XCTAssertTrue(
            FileManager.default.isExecutableFile(atPath: manager),
            "xsettingsd is a test package (make deps-test)")
        let daemon = try background(manager, [])
        XCTAssertTrue(
            waitUntil { daemon.stderr.contains("Took ownership of selection") || !daemon.isRunning },
            "xsettingsd never managed the display: \(daemon.stderr)")
        return (display, xsettings)
    }

    /// Starts the client of `kind` with Debian's python3, GSettings in memory and no theme
    /// forced (or `GTK_THEME` set to `theme`), reading its configuration and themes where the
    /// daemon writes them: the test's `XDG_CONFIG_HOME` and `XDG_DATA_HOME`, elsewhere than
    /// under its home, as a user may have them.
    private func startClient(_ kind: String, x: Int = 0, theme: String? = nil) throws -> Background {
        let script = root + "/gtk-client.py"
        if !FileManager.default.fileExists(atPath: script) {
            try Self.client.write(toFile: script, atomically: true, encoding: .utf8)
        }
        let saved = environment
        defer { environment = saved }
        environment["GDK_BACKEND"] = "x11"
        environment["GSK_RENDERER"] = "cairo"
        environment["GSETTINGS_BACKEND"] = "memory"
        environment["GTK_A11Y"] = "none"
        environment["NO_AT_BRIDGE"] = "1"
        for name in ["GTK_THEME", "ADW_DEBUG_COLOR_SCHEME", "ADW_DISABLE_PORTAL"] { environment[name] = nil }
        environment["GTK_THEME"] = theme
        return try background(Locations.python, [script, kind, String(x)])
    }

    /// Waits until `client` has printed a line starting with `tag` and returns it.
    private func line(
        _ tag: String, of client: Background, file: StaticString = #filePath, line: UInt = #line
    ) -> String {
        var found: String?
        let printed = waitUntil {
            found = client.stdout.split(separator: "\n").last { $0.hasPrefix(tag) }.map(String.init)
            return found != nil || !client.isRunning
        }
        XCTAssertTrue(
            printed && found != nil, "no '\(tag)' line: \(client.stdout)\n\(client.stderr)", file: file,
            line: line)
        return found ?? ""
    }

    /// Waits until a screenshot shows `expected` on at least `backgroundPixels` pixels of `rect`,
    /// then checks that no pixel of `rect` is `other`.
    private func expectBackground(
        _ expected: PixelColor, not other: PixelColor, in rect: PixelRect, on display: VirtualDisplay,
        _ what: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        var shot: Screenshot?
        let shown = try waitUntil {
            shot = try display.screenshot()
            return shot!.count(of: expected, tolerance: 1, in: rect) >= Self.backgroundPixels
        }
        let last = try XCTUnwrap(shot, file: file, line: line)
        XCTAssertTrue(
            shown,
            "\(what): \(last.count(of: expected, tolerance: 1, in: rect)) pixels of \(expected); "
                + "commonest colours: \(last.commonestColors())", file: file, line: line)
        XCTAssertEqual(
            last.count(of: other, tolerance: 1, in: rect), 0,
            "\(what): commonest colours: \(last.commonestColors())",
            file: file, line: line)
    }

    /// Waits until the gtk plugin's commands of the active serial have ended, and returns its
    /// result (`ok` or its failures).
    private func gtkPluginResult() throws -> String {
        let serial = try serial()
        var result = ""
        _ = try waitUntil {
            let r = try livery("plugins", "--json")
            guard r.status == 0,
                let rows = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]],
                let row = rows.first(where: { $0["name"] as? String == "gtk" }),
                row["serial"] as? Int == Int(serial)
            else { return false }
            result = row["result"] as? String ?? ""
            return result != "running"
        }
        return result
    }

    /// A running GTK 3 window and a running GTK 4 window (no libadwaita) take each switch: the
    /// named colours GTK 3's Adwaita defines (`theme_bg_color`) turn to the new theme's within
    /// the deadline, and each window's background on screen too; a window opened afterwards in
    /// the running instance and a new instance have them; a libadwaita application started after
    /// the switch has libadwaita's (`window_bg_color`) from the imported `livery.css`.
    func testRunningGtk3AndGtk4WindowsTakeEachSwitch() throws {
        let (display, xsettings) = try setUpDesktop()
        try startDaemon()
        try setTheme("solarized-light")
        XCTAssertEqual(try gtkPluginResult(), "ok", daemon.stderr)
        let gtk4Window = PixelRect(x: 0, y: 0, width: Self.windowSize.width, height: Self.windowSize.height)
        let gtk3Window = PixelRect(x: 320, y: 0, width: Self.windowSize.width, height: Self.windowSize.height)
        let gtk3 = try startClient("3", x: gtk3Window.x)
        let gtk4 = try startClient("4")
        for (client, name) in [(gtk3, "GTK 3"), (gtk4, "GTK 4")] {
            XCTAssertTrue(
                line("open 1", of: client).contains("theme_bg_color=\(Self.solarizedBase00)"),
                "\(name) at start: \(client.stdout)\(client.stderr)")
        }
        try expectBackground(
            Self.solarizedBase00, not: Self.nordBase00, in: gtk3Window, on: display, "GTK 3 at start")
        try expectBackground(
            Self.solarizedBase00, not: Self.nordBase00, in: gtk4Window, on: display, "GTK 4 at start")

        try setTheme("nord")
        for (client, name) in [(gtk3, "GTK 3"), (gtk4, "GTK 4")] {
            let reloaded = waitUntil {
                client.stdout.split(separator: "\n").contains {
                    $0.hasPrefix("reload ") && $0.contains("theme_bg_color=\(Self.nordBase00)")
                }
            }
            let result = try gtkPluginResult()
            XCTAssertTrue(
                reloaded,
                "\(name) running: \(client.stdout)\(client.stderr)\nplugin: \(result)\n\(daemon.stderr)")
        }
        try expectBackground(
            Self.nordBase00, not: Self.solarizedBase00, in: gtk3Window, on: display, "GTK 3 running")
        try expectBackground(
            Self.nordBase00, not: Self.solarizedBase00, in: gtk4Window, on: display, "GTK 4 running")
        XCTAssertEqual(try gtkPluginResult(), "ok")
        // The user's other settings are kept.
        XCTAssertTrue(
            (try? String(contentsOfFile: xsettings, encoding: .utf8))?.contains("Xft/DPI 98304\n") == true)

        // A new window of a running instance.
        for (client, name) in [(gtk3, "GTK 3"), (gtk4, "GTK 4")] {
            kill(client.pid, SIGUSR1)
            XCTAssertTrue(
                line("open 2", of: client).contains("theme_bg_color=\(Self.nordBase00)"),
                "\(name) new window: \(client.stdout)")
        }
        // New instances, libadwaita's included.
        for (kind, name) in [("3", "GTK 3"), ("4", "GTK 4")] {
            let client = try startClient(kind, x: 320)
            XCTAssertTrue(
                line("open 1", of: client).contains("theme_bg_color=\(Self.nordBase00)"),
                "\(name) new instance: \(client.stdout)\(client.stderr)")
            client.stop()
        }
        let adwaita = try startClient("adw")
        XCTAssertTrue(
            line("open 1", of: adwaita).contains("window_bg_color=\(Self.nordBase00)"),
            "libadwaita new instance: \(adwaita.stdout)\(adwaita.stderr)")
    }

    /// A running libadwaita application started with `GTK_THEME=Livery-adwaita`, as the README
    /// says, takes each switch: libadwaita then draws with the GTK theme instead of its own
    /// stylesheet and GTK reads that theme again whenever the theme's name changes, so the
    /// window's `window_bg_color` and its background on screen turn to the new theme's.
    func testARunningLibadwaitaApplicationWithTheLiveryAdwaitaThemeTakesEachSwitch() throws {
        let (display, _) = try setUpDesktop()
        // This way gtk.css imports nothing: livery.css, read once at start, would win.
        try "".write(toFile: configHome + "/gtk-4.0/gtk.css", atomically: true, encoding: .utf8)
        try startDaemon()
        try setTheme("solarized-light")
        XCTAssertEqual(try gtkPluginResult(), "ok", daemon.stderr)
        let window = PixelRect(x: 0, y: 0, width: Self.windowSize.width, height: Self.windowSize.height)
        let adwaita = try startClient("adw", theme: "Livery-adwaita")
        XCTAssertTrue(
            line("open 1", of: adwaita).contains("window_bg_color=\(Self.solarizedBase00)"),
            "at start: \(adwaita.stdout)\(adwaita.stderr)")
        try expectBackground(
            Self.solarizedBase00, not: Self.nordBase00, in: window, on: display, "libadwaita at start")

        try setTheme("nord")
        let reloaded = waitUntil {
            adwaita.stdout.split(separator: "\n").contains {
                $0.hasPrefix("reload ") && $0.contains("window_bg_color=\(Self.nordBase00)")
            }
        }
        let result = try gtkPluginResult()
        XCTAssertTrue(
            reloaded, "running: \(adwaita.stdout)\(adwaita.stderr)\nplugin: \(result)\n\(daemon.stderr)")
        try expectBackground(
            Self.nordBase00, not: Self.solarizedBase00, in: window, on: display, "libadwaita running")
        // libadwaita's stylesheet loads without a parser error: every import is found.
        XCTAssertFalse(adwaita.stderr.contains("Theme parser error"), adwaita.stderr)
    }

    /// With no XSETTINGS manager on the display and no GNOME setting naming the GTK theme
    /// Livery, running applications cannot be told: the switch's plugin run fails, listed by
    /// `livery status`, and the log says why and what to do.
    func testWithNothingToTellRunningApplicationsTheRunFailsAndSaysWhy() throws {
        environment["HOME"] = home
        try FileManager.default.createDirectory(
            atPath: configHome + "/livery/plugins", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: configHome + "/livery/plugins/gtk", withDestinationPath: Locations.repo + "/plugins/gtk")
        _ = try startDisplay()
        try startDaemon()
        try setTheme("nord")
        XCTAssertNotEqual(try gtkPluginResult(), "ok")
        XCTAssertTrue(try livery("status").stdout.contains("plugin 'gtk'"))
        XCTAssertTrue(
            daemon.stderr.contains("running GTK 3 and GTK 4 applications keep their colours"), daemon.stderr)
        // The files are written all the same: applications started afterwards take them.
        let colours = try String(
            contentsOfFile: dataHome + "/themes/Livery/colors.css", encoding: .utf8)
        XCTAssertTrue(colours.contains("@define-color theme_bg_color \(Self.nordBase00);"), colours)
    }
}
