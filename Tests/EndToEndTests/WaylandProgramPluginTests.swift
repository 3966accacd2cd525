import Foundation
import XCTest

/// The shipped plugins of Wayland launchers and notification centres, set up as the README
/// says, with the programs Debian 12 ships drawing on sway's headless output (they need
/// wlr-layer-shell): each reads the file Livery writes and shows its colours, on grim's
/// screenshots. The expected colours come from the scheme files.
final class WaylandProgramPluginTests: ProgramPluginTestCase {
    /// Waits until `shot()` has more than `least` pixels of `color`; fails with the commonest
    /// colours and `program`'s error output otherwise.
    func assertShows(
        _ color: String, _ least: Int, _ what: String, _ program: Background,
        _ shot: () throws -> Screenshot, file: StaticString = #filePath, line: UInt = #line
    ) {
        var seen = ""
        let shown = waitUntil {
            guard let s = try? shot() else { return false }
            seen = s.commonestColors()
            return s.count(of: PixelColor(color)) > least
        }
        XCTAssertTrue(
            shown, "\(what): no \(color) among \(seen)\n\(program.stderr.suffix(800))", file: file, line: line
        )
    }

    /// fuzzel 1.8.2 (Debian 12's, which has no `include`: it takes the file as its whole
    /// configuration, `--config`): its parser accepts the file (and refuses a colour it cannot
    /// read, so the check means something), and a fuzzel started after each switch draws the
    /// theme's background.
    func testFuzzelReadsTheColoursAndDrawsThem() throws {
        let fuzzel = try tool("fuzzel")
        try enable("fuzzel")
        try startDaemon()
        try setTheme("nord")
        let nord = try slots("nord")
        let file = home + "/.config/fuzzel/livery.ini"
        XCTAssertTrue(
            waitUntil {
                contents(file)?.contains("background=" + nord["base00"]!.dropFirst() + "ff") == true
            },
            "livery.ini never written for nord: \(daemon.stderr.suffix(800))")
        // Without a compositor fuzzel reads its configuration, then stops for want of Wayland.
        let options = ["--config=" + file, "--log-no-syslog", "--log-level=info"]
        let parsed = try run(fuzzel, options)
        XCTAssertTrue(parsed.stderr.contains("loading configuration from " + file), "\(parsed)")
        XCTAssertTrue(parsed.stderr.contains("failed to connect to wayland"), "\(parsed)")
        XCTAssertFalse(parsed.stderr.contains("err: config.c"), "\(parsed)")
        let broken = root + "/broken.ini"
        try write(contents(file)!.replacingOccurrences(of: "text=", with: "text=zz"), to: broken)
        let refused = try run(fuzzel, ["--config=" + broken, "--log-no-syslog"])
        XCTAssertTrue(refused.stderr.contains("not a valid color value"), "\(refused)")

        let shot = try startSway(as: .nobody).screenshot
        let launch = options + ["--dmenu", "--no-exit-on-keyboard-focus-loss"]
        let first = try background(fuzzel, launch)
        assertShows(nord["base00"]!, 20_000, "fuzzel under nord", first, shot)
        first.stop()  // fuzzel allows one instance at a time
        try setTheme("3024")
        let theme = try slots("3024")
        XCTAssertTrue(
            waitUntil { contents(file)?.contains("background=" + theme["base00"]!.dropFirst()) == true })
        let second = try background(fuzzel, launch)
        assertShows(theme["base00"]!, 20_000, "fuzzel started after livery set 3024", second, shot)
    }

    /// wofi 1.3 (Debian 12's) with `@import url("livery.css");` in its style.css: a wofi
    /// started after each switch draws the window in the theme's background and its input in
    /// base01.
    func testWofiImportsTheColoursAndDrawsThem() throws {
        let wofi = try tool("wofi")
        try enable("wofi")
        // wofi reads style.css as text: an import's path is absolute (no ~), as the README says.
        try write("@import url(\"\(home)/.config/wofi/livery.css\");\n", to: ".config/wofi/style.css")
        try startDaemon()
        environment["XDG_CONFIG_HOME"] = home + "/.config"  // where wofi looks for style.css
        environment["NO_AT_BRIDGE"] = "1"
        let shot = try startSway(as: .nobody).screenshot
        for id in ["nord", "3024"] {
            try setTheme(id)
            let s = try slots(id)
            XCTAssertTrue(
                waitUntil { contents(".config/wofi/livery.css")?.contains(s["base00"]!) == true },
                "livery.css never written for \(id): \(daemon.stderr.suffix(800))")
            let launcher = try background(wofi, ["--dmenu"])
            assertShows(s["base00"]!, 10_000, "wofi's window under \(id)", launcher, shot)
            assertShows(s["base01"]!, 2_000, "wofi's input under \(id)", launcher, shot)
            launcher.stop()
        }
    }

    /// SwayNotificationCenter 0.7.3 (Debian 12's) with a style.css importing swaync's own and
    /// then the plugin's: its control centre shows the theme's `cc-bg`, and after `livery set`
    /// the running swaync (`swaync-client --reload-css`, over the test's session bus) the new
    /// one.
    func testSwayncReloadsItsStyleOnEachSwitch() throws {
        let swaync = try tool("swaync")
        let client = try tool("swaync-client")
        try enable("swaync")
        try write(
            "@import url(\"/etc/xdg/swaync/style.css\");\n@import url(\"livery.css\");\n",
            to: ".config/swaync/style.css")
        try startDaemon()
        try setTheme("nord")
        let nord = try slots("nord")
        XCTAssertTrue(
            waitUntil { contents(".config/swaync/livery.css")?.contains(nord["base00"]!) == true },
            "livery.css never written for nord: \(daemon.stderr.suffix(800))")
        environment["XDG_CONFIG_HOME"] = home + "/.config"  // where swaync looks for style.css
        environment["NO_AT_BRIDGE"] = "1"
        environment["GIO_USE_VFS"] = "local"
        let shot = try startSway(as: .nobody).screenshot
        let centre = try background(swaync, [])
        let opened = try waitUntil { try run(client, ["--toggle-panel", "--skip-wait"]).status == 0 }
        XCTAssertTrue(opened, centre.stderr)
        assertShows(nord["base00"]!, 30_000, "swaync's control centre under nord", centre, shot)
        try switchTheme("3024", plugin: "swaync")
        assertShows(
            try slots("3024")["base00"]!, 30_000, "the running swaync after livery set 3024", centre, shot)
    }
}
